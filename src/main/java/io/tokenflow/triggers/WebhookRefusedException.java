package io.tokenflow.triggers;

/** A webhook call refused (and recorded): the status and problem to answer with. */
class WebhookRefusedException extends RuntimeException {

    private final int status;
    private final String slug;
    private final String pointer;

    WebhookRefusedException(int status, String slug, String message, String pointer) {
        super(message);
        this.status = status;
        this.slug = slug;
        this.pointer = pointer;
    }

    int status() {
        return status;
    }

    String slug() {
        return slug;
    }

    String pointer() {
        return pointer;
    }
}
