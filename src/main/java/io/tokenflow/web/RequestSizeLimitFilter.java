package io.tokenflow.web;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses API and webhook request bodies larger than {@code tokenflow.limits.max-document-bytes} with 413 problem+json, before
 * anything parses them. Bodies without a length are read up to the limit and replayed.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class RequestSizeLimitFilter extends OncePerRequestFilter {

    private final LimitsSettings limits;

    RequestSizeLimitFilter(LimitsSettings limits) {
        this.limits = limits;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !ErrorHandling.isApi(request);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long declared = request.getContentLengthLong();
        if (declared > limits.maxDocumentBytes()) {
            refuse(response, declared);
            return;
        }
        if (declared >= 0) {
            chain.doFilter(request, response);
            return;
        }
        byte[] body = request.getInputStream().readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limits.maxDocumentBytes() + 1));
        if (body.length > limits.maxDocumentBytes()) {
            refuse(response, body.length);
            return;
        }
        chain.doFilter(new ReplayedBody(request, body), response);
    }

    private void refuse(HttpServletResponse response, long size) throws IOException {
        response.setStatus(413);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        String detail = "Expected a request body of at most " + limits.maxDocumentBytes() + " bytes, but it has "
                + (size > limits.maxDocumentBytes() ? "more" : size);
        response.getOutputStream().write(("{\"type\":\"" + Problems.TYPE_BASE + "payload-too-large\",\"title\":"
                + "\"Payload too large\",\"status\":413,\"detail\":\"" + detail + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    /** The request with its already-read body served again. */
    private static final class ReplayedBody extends HttpServletRequestWrapper {
        private final byte[] body;

        ReplayedBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("Expected blocking reads of a replayed body");
                }

                @Override
                public int read() throws IOException {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    return in.read(b, off, len);
                }
            };
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
