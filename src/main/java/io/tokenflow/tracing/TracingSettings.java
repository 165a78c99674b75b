package io.tokenflow.tracing;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the runs' spans go and where people read them.
 *
 * @param otlpEndpoint the OTLP/HTTP traces endpoint (e.g. {@code http://collector:4318/v1/traces}); unset: no span is
 *                     built or sent (the {@code traceparent} of tokens and HTTP calls is sent either way)
 * @param exportTimeout how long one export may take before it is given up (spans are not sent again)
 * @param uiUrl        a trace viewer's address with {@code {traceId}} in it (e.g.
 *                     {@code http://jaeger:16686/trace/{traceId}}); the run page links the run's trace there when set
 */
@ConfigurationProperties("tokenflow.tracing")
public record TracingSettings(URI otlpEndpoint, @DefaultValue("10s") Duration exportTimeout, String uiUrl) {

    public TracingSettings {
        if (otlpEndpoint != null && !("http".equals(otlpEndpoint.getScheme())
                || "https".equals(otlpEndpoint.getScheme()))) {
            throw new IllegalArgumentException("Expected tokenflow.tracing.otlp-endpoint to be an http(s) URL, but "
                    + "found " + otlpEndpoint);
        }
        if (uiUrl != null && !uiUrl.isBlank() && !uiUrl.contains("{traceId}")) {
            throw new IllegalArgumentException("Expected tokenflow.tracing.ui-url to contain {traceId}, but found "
                    + uiUrl);
        }
    }

    public boolean exporting() {
        return otlpEndpoint != null;
    }

    /** The viewer's address of a trace, or null without {@code ui-url}. */
    public String linkTo(String traceId) {
        return uiUrl == null || uiUrl.isBlank() ? null : uiUrl.replace("{traceId}", traceId);
    }
}
