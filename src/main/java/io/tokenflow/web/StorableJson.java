package io.tokenflow.web;

import java.util.Optional;

import io.tokenflow.engine.replay.StorableValues;
import tools.jackson.databind.JsonNode;

/**
 * Refuses, where a request enters, JSON that PostgreSQL cannot store as it was sent: a NUL character (jsonb and text
 * columns refuse it), a lone UTF-16 surrogate (not text at all: written back as {@code ?}), and a number out of a
 * double's range ({@code 1e999} is parsed as infinity and written back as the string {@code "Infinity"}). Refusing is
 * chosen over an escape of our own: what is stored is exactly what was sent, and the one who sent it learns at once
 * (422 naming the pointer) instead of an event the event log cannot write. The rules are
 * {@link StorableValues}, which a worker's output and error meet too.
 */
public final class StorableJson {

    private StorableJson() {
    }

    /** @throws BadRequestException (422) naming the pointer of the first member or value that cannot be stored */
    public static void check(JsonNode value, String pointer) {
        refuse(StorableValues.problem(value, pointer));
    }

    /** @throws BadRequestException (422) naming the pointer when the text cannot be stored */
    public static void check(String text, String pointer) {
        refuse(StorableValues.problem(text, pointer));
    }

    private static void refuse(Optional<StorableValues.Problem> problem) {
        problem.ifPresent(found -> {
            throw new BadRequestException(422, found.message(), found.pointer());
        });
    }
}
