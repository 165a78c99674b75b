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

    /** The place of a map's element: the map's place and the element's index ({@code node#3@17}). */
    static String element(String mapPlace, int index) {
        return mapPlace + "@" + index;
    }

    /** The index of a map element's place, or -1 when the place is not an element's. */
    static int elementOf(String place) {
        int at = place == null ? -1 : place.lastIndexOf('@');
        return at < 0 ? -1 : Integer.parseInt(place.substring(at + 1));
    }

    /** The iteration of a place (of a map's element too); 0 when it has none. */
    static int iterationOf(String place) {
        int hash = place == null ? -1 : place.lastIndexOf('#');
        if (hash < 0) {
            return 0;
        }
        int element = place.indexOf('@', hash);
        return Integer.parseInt(element < 0 ? place.substring(hash + 1) : place.substring(hash + 1, element));
    }
}
