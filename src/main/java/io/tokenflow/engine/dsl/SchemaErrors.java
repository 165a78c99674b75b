package io.tokenflow.engine.dsl;

import com.networknt.schema.Error;
import com.networknt.schema.path.NodePath;

/** Where a JSON Schema validation error is, as an RFC 6901 pointer (into the member for {@code required}). */
public final class SchemaErrors {

    private SchemaErrors() {
    }

    /** The pointer of the error's instance location; for a missing required member, the member's pointer. */
    public static String pointerOf(Error error) {
        String pointer = pointerOf(error.getInstanceLocation());
        boolean required = "required".equals(error.getKeyword()) && error.getProperty() != null;
        return required ? pointer + "/" + escape(error.getProperty()) : pointer;
    }

    public static String pointerOf(NodePath path) {
        StringBuilder pointer = new StringBuilder();
        for (int i = 0; i < path.getNameCount(); i++) {
            pointer.append('/').append(escape(String.valueOf(path.getElement(i))));
        }
        return pointer.toString();
    }

    static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
