package io.tokenflow.engine.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An RFC 6901 JSON Pointer: an immutable list of unescaped reference tokens. The empty list is the
 * root (the whole document). {@link #toString()} gives the escaped form ("~" as "~0", "/" as "~1"),
 * which {@link #parse(String)} reads back; the two are exact inverses.
 *
 * @param tokens the unescaped reference tokens, outermost first; copied, no nulls
 */
public record JsonPointer(List<String> tokens) {

    private static final JsonPointer ROOT = new JsonPointer(List.of());

    /** Validates and copies the tokens. */
    public JsonPointer {
        tokens = List.copyOf(Objects.requireNonNull(tokens, "tokens"));
    }

    /**
     * Parses the escaped string form: "" is the root, anything else starts with "/".
     *
     * @throws InvalidJsonPointerException if the text is not RFC 6901 syntax
     */
    public static JsonPointer parse(String text) {
        Objects.requireNonNull(text, "text");
        if (text.isEmpty()) {
            return ROOT;
        }
        if (text.charAt(0) != '/') {
            throw new InvalidJsonPointerException(Wording.quote(text) + " does not start with \"/\"");
        }
        List<String> tokens = new ArrayList<>();
        int start = 1;
        int slash;
        while ((slash = text.indexOf('/', start)) >= 0) {
            tokens.add(unescape(text, start, slash));
            start = slash + 1;
        }
        tokens.add(unescape(text, start, text.length()));
        return new JsonPointer(tokens);
    }

    /** One reference token as written in a pointer (RFC 6901: {@code ~} as {@code ~0}, {@code /} as {@code ~1}). */
    public static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    /** The pointer to the whole document (""). */
    public static JsonPointer root() {
        return ROOT;
    }

    /** This pointer extended by one (unescaped) token. */
    public JsonPointer append(String token) {
        Objects.requireNonNull(token, "token");
        List<String> longer = new ArrayList<>(tokens.size() + 1);
        longer.addAll(tokens);
        longer.add(token);
        return new JsonPointer(longer);
    }

    /** This pointer extended by an array index; the index must not be negative. */
    public JsonPointer append(int index) {
        if (index < 0) {
            throw new IllegalArgumentException("Expected a non-negative array index, but it is " + index);
        }
        return append(Integer.toString(index));
    }

    /** Whether this is the root pointer (""). */
    public boolean isRoot() {
        return tokens.isEmpty();
    }

    /**
     * The pointer without its last token.
     *
     * @throws IllegalStateException for the root, which has no parent
     */
    public JsonPointer parent() {
        requireNotRoot("parent");
        return new JsonPointer(tokens.subList(0, tokens.size() - 1));
    }

    /**
     * The last (unescaped) token.
     *
     * @throws IllegalStateException for the root, which has no tokens
     */
    public String last() {
        requireNotRoot("last token");
        return tokens.get(tokens.size() - 1);
    }

    /**
     * Whether {@code other} is this location or lies beneath it (this pointer's tokens are a prefix of
     * its tokens). The root is a prefix of every pointer; every pointer is a prefix of itself.
     */
    public boolean isPrefixOf(JsonPointer other) {
        return other.tokens.size() >= tokens.size()
                && other.tokens.subList(0, tokens.size()).equals(tokens);
    }

    /** The escaped string form, "" for the root. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (String token : tokens) {
            text.append('/').append(token.replace("~", "~0").replace("/", "~1"));
        }
        return text.toString();
    }

    private void requireNotRoot(String what) {
        if (isRoot()) {
            throw new IllegalStateException("Expected a non-root pointer, but the root pointer has no " + what);
        }
    }

    private static String unescape(String text, int start, int end) {
        StringBuilder token = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c != '~') {
                token.append(c);
                continue;
            }
            char next = i + 1 < end ? text.charAt(i + 1) : ' ';
            if (next != '0' && next != '1') {
                throw new InvalidJsonPointerException(Wording.quote(text) + " has \"~\" at offset " + i
                        + " not followed by \"0\" or \"1\"");
            }
            token.append(next == '0' ? '~' : '/');
            i++;
        }
        return token.toString();
    }
}
