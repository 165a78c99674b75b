package io.tokenflow.workers.http;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.springframework.stereotype.Component;

import io.tokenflow.workers.Task;
import io.tokenflow.workers.TaskHandler;
import io.tokenflow.workers.TaskResult;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code http}: one call per token through one shared {@link HttpClient}, with {@code Idempotency-Key: <token id>}.
 * 2xx completes; 4xx fails permanently ({@code http_<status>}); 5xx, time-outs and network errors fail transiently;
 * non-http(s) URLs and bodies over {@value #MAX_BODY_BYTES} bytes fail permanently.
 */
@Component
public class HttpTaskHandler implements TaskHandler {

    static final int MAX_BODY_BYTES = 5 * 1024 * 1024;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NORMAL).build();
    private final RequestFactory requests;
    private final ResponseOutput outputs;

    public HttpTaskHandler(JsonMapper json) {
        this.requests = new RequestFactory(json);
        this.outputs = new ResponseOutput(json);
    }

    @Override
    public String type() {
        return "http";
    }

    @Override
    public TaskResult execute(Task task) {
        try {
            RequestFactory.Prepared prepared = requests.prepare(task);
            return outcome(prepared, send(prepared));
        } catch (HttpTaskException e) {
            return e.failure();
        }
    }

    private HttpResponse<byte[]> send(RequestFactory.Prepared prepared) throws HttpTaskException {
        String call = prepared.request().method() + " " + prepared.request().uri();
        CompletableFuture<HttpResponse<byte[]>> response = client.sendAsync(prepared.request(),
                info -> new BoundedBodySubscriber(MAX_BODY_BYTES));
        try {
            return response.get(prepared.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            response.cancel(true);
            throw timedOut(call, prepared.timeout());
        } catch (ExecutionException e) {
            throw failed(call, prepared.timeout(), e.getCause());
        } catch (InterruptedException e) {
            response.cancel(true);
            Thread.currentThread().interrupt();
            throw HttpTaskException.transientFailure("interrupted", "Expected " + call + " to finish, but the worker "
                    + "was interrupted");
        }
    }

    private static HttpTaskException failed(String call, Duration timeout, Throwable cause) {
        if (cause instanceof BoundedBodySubscriber.TooLarge) {
            return HttpTaskException.permanent("response_too_large", "Expected " + call + " to answer with at most "
                    + MAX_BODY_BYTES + " bytes, but the body is larger");
        }
        if (cause instanceof HttpTimeoutException) {
            return timedOut(call, timeout);
        }
        String reason = cause instanceof IOException ? String.valueOf(cause) : "unexpected " + cause;
        return HttpTaskException.transientFailure("network", "Expected a response to " + call + ", but: " + reason);
    }

    private static HttpTaskException timedOut(String call, Duration timeout) {
        return HttpTaskException.transientFailure("timeout", "Expected a response to " + call + " within "
                + timeout.toMillis() + " ms, but none came");
    }

    private TaskResult outcome(RequestFactory.Prepared prepared, HttpResponse<byte[]> response) {
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return TaskResult.completed(outputs.toJson(response));
        }
        String message = "Expected a 2xx response to " + prepared.request().method() + " " + prepared.request().uri()
                + ", but got " + status + (response.body().length == 0 ? "" : ": " + ResponseOutput.snippet(response));
        return status >= 500 ? TaskResult.transientFailure("http_" + status, message)
                : TaskResult.permanent("http_" + status, message);
    }
}
