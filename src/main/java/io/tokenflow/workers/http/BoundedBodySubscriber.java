package io.tokenflow.workers.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/** Collects a response body, giving up (and cancelling the download) once it grows past a limit. */
final class BoundedBodySubscriber implements HttpResponse.BodySubscriber<byte[]> {

    private final long limit;
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private Flow.Subscription subscription;

    BoundedBodySubscriber(long limit) {
        this.limit = limit;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (body.isDone()) {
            return;
        }
        for (ByteBuffer item : items) {
            if (buffer.size() + (long) item.remaining() > limit) {
                subscription.cancel();
                body.completeExceptionally(new TooLarge(limit));
                return;
            }
            byte[] bytes = new byte[item.remaining()];
            item.get(bytes);
            buffer.write(bytes, 0, bytes.length);
        }
    }

    @Override
    public void onError(Throwable error) {
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        body.complete(buffer.toByteArray());
    }

    /** The body grew past the limit. */
    static final class TooLarge extends IOException {
        TooLarge(long limit) {
            super("Expected a response body of at most " + limit + " bytes, but it is larger");
        }
    }
}
