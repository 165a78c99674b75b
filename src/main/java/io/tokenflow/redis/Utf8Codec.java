package io.tokenflow.redis;

import java.nio.charset.StandardCharsets;

import io.lettuce.core.codec.StringCodec;
import io.netty.buffer.ByteBufUtil;

/**
 * UTF-8 strings, as Lettuce's {@link StringCodec#UTF8}, but with an exact size estimate. Lettuce writes an argument
 * whose encoded size it cannot know up front into a temporary buffer first, to learn the length that precedes it on
 * the wire; for a Lua step of some fifty arguments that was fifty buffer allocations per call on the I/O thread (and
 * a stack trace for every 128th, taken by Netty's leak detector). Counting the UTF-8 bytes instead is one pass over
 * the characters, and the argument is then written straight into the command's buffer.
 */
final class Utf8Codec extends StringCodec {

    static final Utf8Codec INSTANCE = new Utf8Codec();

    private Utf8Codec() {
        super(StandardCharsets.UTF_8);
    }

    /** Exactly the bytes {@link #encodeValue(String, io.netty.buffer.ByteBuf)} writes (Netty counts as it writes). */
    @Override
    public int estimateSize(Object keyOrValue) {
        return keyOrValue == null ? 0 : ByteBufUtil.utf8Bytes((CharSequence) keyOrValue);
    }

    @Override
    public boolean isEstimateExact() {
        return true;
    }
}
