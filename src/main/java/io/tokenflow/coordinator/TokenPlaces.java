package io.tokenflow.coordinator;

/**
 * Where an in-flight token is, as kept in the run's tokens hash: its node, with {@code #<iteration>} appended inside
 * loops ({@code review#2}); iteration 0 keeps the bare node id. Completions must name the place their token is at.
 */
final class TokenPlaces {

    private TokenPlaces() {
    }

    static String of(String node, int iteration) {
        return iteration == 0 ? node : node + "#" + iteration;
    }

    /** The iteration of a place; 0 when it has none. */
    static int iterationOf(String place) {
        int hash = place == null ? -1 : place.lastIndexOf('#');
        return hash < 0 ? 0 : Integer.parseInt(place.substring(hash + 1));
    }
}
