package io.tokenflow.agents;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** One HTTP exchange whose response body is read up to a limit: agents never buffer an unbounded answer. */
public final class BoundedHttp {

    private BoundedHttp() {
    }

    /** A response whose body fit the limit. */
    public record Response(int status, byte[] body, String contentType) {

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public boolean successful() {
            return status >= 200 && status < 300;
        }

        /** The body's beginning, for error messages. */
        public String snippet() {
            String text = text().strip();
            return text.length() <= 300 ? text : text.substring(0, 300) + "…";
        }
    }

    /** The body grew past the limit. */
    public static final class TooLarge extends IOException {
        TooLarge(String call, int limit) {
            super("Expected " + call + " to answer with at most " + limit + " bytes, but the body is larger");
        }
    }

    public static Response send(HttpClient client, HttpRequest request, int maxBytes)
            throws IOException, InterruptedException {
        HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        byte[] body;
        try (InputStream in = response.body()) {
            body = in.readNBytes(maxBytes + 1);
        }
        if (body.length > maxBytes) {
            throw new TooLarge(request.method() + " " + request.uri(), maxBytes);
        }
        return new Response(response.statusCode(), body, response.headers().firstValue("content-type").orElse(""));
    }
}
