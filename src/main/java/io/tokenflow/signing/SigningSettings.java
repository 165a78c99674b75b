package io.tokenflow.signing;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Signed worker signals, under {@code tokenflow.signals}.
 *
 * @param requireSignatures  whether a signal without a signature is refused (true); false accepts unsigned signals
 *                           while workers are being moved to signing (a signed one is still checked)
 * @param maxAge             how far apart a signal's {@code signed_at} and the time Redis wrote its stream entry may
 *                           be; a signal further apart is refused as replayed (or from a worker whose clock is off).
 *                           A key revoked at T still passes signals written before T for this long after T
 * @param keyCacheTtl        after this long a worker key read from PostgreSQL is read again on its next use: a key
 *                           created or revoked on another instance takes effect here then (while PostgreSQL is away,
 *                           the key last read is used)
 * @param builtInGrace       when the built-in key is rotated, how long the old one stays valid (every instance picks
 *                           the new one up within {@code keyCacheTtl})
 */
@ConfigurationProperties("tokenflow.signals")
public record SigningSettings(@DefaultValue("true") boolean requireSignatures,
                              @DefaultValue("5m") Duration maxAge, @DefaultValue("5s") Duration keyCacheTtl,
                              @DefaultValue("1m") Duration builtInGrace) {

    public SigningSettings {
        requirePositive(maxAge, "max-age");
        requirePositive(keyCacheTtl, "key-cache-ttl");
        requirePositive(builtInGrace, "built-in-grace");
        if (builtInGrace.compareTo(keyCacheTtl) <= 0) {
            throw new IllegalArgumentException("Expected tokenflow.signals.built-in-grace longer than key-cache-ttl ("
                    + keyCacheTtl + "), but got " + builtInGrace);
        }
    }

    private static void requirePositive(Duration value, String name) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException("Expected tokenflow.signals." + name + " > 0, but got " + value);
        }
    }
}
