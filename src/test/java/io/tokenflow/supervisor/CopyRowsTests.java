package io.tokenflow.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/** The binary layout; {@code EventLogRowsIntegrationTests} has PostgreSQL read it back. */
class CopyRowsTests {

    private static final byte[] SIGNATURE = "PGCOPY\n\377\r\n\0".getBytes(StandardCharsets.ISO_8859_1);

    @Test
    void startsWithTheSignatureAndWritesEachRowAsItsColumnCountThenEachColumnsLengthAndBytes() {
        UUID id = UUID.fromString("00112233-4455-6677-8899-aabbccddeeff");
        CopyRows rows = new CopyRows(3);
        rows.uuid(id).bigint(-2).text(null).text("é😀").json("{}").uuid(null);

        ByteBuffer bytes = ByteBuffer.wrap(rows.bytes());
        byte[] signature = new byte[SIGNATURE.length];
        bytes.get(signature);
        assertThat(signature).isEqualTo(SIGNATURE);
        assertThat(bytes.getInt()).as("flags").isZero();
        assertThat(bytes.getInt()).as("header extension").isZero();

        assertThat(bytes.getShort()).isEqualTo((short) 3);
        assertThat(bytes.getInt()).isEqualTo(16);
        assertThat(new UUID(bytes.getLong(), bytes.getLong())).isEqualTo(id);
        assertThat(bytes.getInt()).isEqualTo(8);
        assertThat(bytes.getLong()).isEqualTo(-2);
        assertThat(bytes.getInt()).as("null").isEqualTo(-1);

        assertThat(bytes.getShort()).isEqualTo((short) 3);
        assertThat(bytes.getInt()).isEqualTo(6);
        byte[] text = new byte[6];
        bytes.get(text);
        assertThat(new String(text, StandardCharsets.UTF_8)).isEqualTo("é😀");
        assertThat(bytes.getInt()).isEqualTo(2);
        assertThat((char) bytes.get()).isEqualTo('{');
        assertThat((char) bytes.get()).isEqualTo('}');
        assertThat(bytes.getInt()).as("null").isEqualTo(-1);
        assertThat(bytes.hasRemaining()).isFalse();
        assertThat(rows.rows()).isEqualTo(2);
    }

    @Test
    void writesTimesAsMicrosecondsFromTheStartOf2000() {
        assertThat(timestamp(Instant.parse("2000-01-01T00:00:00.000001Z"))).isEqualTo(1);
        assertThat(timestamp(Instant.parse("1999-12-31T23:59:59.999Z"))).isEqualTo(-1_000);
        assertThat(timestamp(Instant.parse("2026-11-26T15:33:01.123Z")))
                .isEqualTo((Instant.parse("2026-11-26T15:33:01.123Z").toEpochMilli() - 946_684_800_000L) * 1_000);
    }

    @Test
    void refusesToCopyAnUnfinishedRow() {
        CopyRows rows = new CopyRows(2);
        rows.text("only one");

        assertThatThrownBy(() -> rows.copyInto(null, "t (a, b)")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the last row has 1");
    }

    private static long timestamp(Instant value) {
        ByteBuffer bytes = ByteBuffer.wrap(new CopyRows(1).timestamptz(value).bytes());
        bytes.position(SIGNATURE.length + 4 + 4 + 2);
        assertThat(bytes.getInt()).isEqualTo(8);
        return bytes.getLong();
    }
}
