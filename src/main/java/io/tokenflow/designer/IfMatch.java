package io.tokenflow.designer;

import io.tokenflow.web.BadRequestException;

/** The version a change applies to, from an {@code If-Match} header: {@code 3}, {@code "3"} or {@code W/"3"}. */
record IfMatch(int version) {

    static IfMatch parse(String header) {
        if (header == null || header.isBlank()) {
            throw new BadRequestException(428, "Expected an If-Match header naming the version this change applies "
                    + "to (e.g. If-Match: \"3\"), but there is none", "header:If-Match");
        }
        String value = header.trim();
        if (value.startsWith("W/")) {
            value = value.substring(2);
        }
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        if (!value.matches("[1-9][0-9]{0,8}")) {
            throw new BadRequestException("Expected If-Match to be a version number such as \"3\", but found "
                    + header, "header:If-Match");
        }
        return new IfMatch(Integer.parseInt(value));
    }

    static String etag(int version) {
        return "\"" + version + "\"";
    }
}
