package io.tokenflow.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.lettuce.core.Range;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.tokenflow.IntegrationTest;

@IntegrationTest
class Utf8CodecIntegrationTests {

    private static final List<String> TEXTS = List.of("", "plain ascii", "é", "naïve café", "日本語のテキスト",
            "emoji 😀 and 🚀 (four bytes each)", "{\"quote\":\"\\\"\",\"nl\":\"\\n\"}", "tab\tand\r\nnewlines",
            "é".repeat(5_000) + "x".repeat(5_000) + "😀".repeat(2_000));

    @Autowired RedisConnections redis;

    @Test
    void estimatesExactlyTheBytesItWrites() {
        for (String text : TEXTS) {
            ByteBuf buffer = Unpooled.buffer();
            Utf8Codec.INSTANCE.encodeValue(text, buffer);
            assertThat(Utf8Codec.INSTANCE.estimateSize(text)).as(text).isEqualTo(buffer.readableBytes())
                    .isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
            buffer.release();
        }
        assertThat(Utf8Codec.INSTANCE.estimateSize(null)).isZero();
    }

    @Test
    void sendsEveryArgumentWithItsUtf8LengthAndReadsItBackUnchanged() {
        RedisClusterCommands<String, String> commands = redis.commands();
        for (String text : TEXTS) {
            // a wrong length on the wire would make Redis read a different argument (or fail the protocol)
            Long length = commands.eval("return string.len(ARGV[1])", ScriptOutputType.INTEGER, new String[0], text);
            assertThat(length).as(text).isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
            String echoed = commands.eval("return ARGV[2]", ScriptOutputType.VALUE, new String[0], text, text + "|");
            assertThat(echoed).isEqualTo(text + "|");
        }
        String stream = "tokenflow.test.utf8:" + System.nanoTime();
        String id = commands.xadd(stream, Map.of("é", TEXTS.get(5), "k", TEXTS.get(8)));
        assertThat(commands.xrange(stream, Range.create(id, id)).get(0).getBody())
                .containsEntry("é", TEXTS.get(5)).containsEntry("k", TEXTS.get(8));
        commands.del(stream);
    }
}
