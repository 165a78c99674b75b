package io.tokenflow.engine.conditions;

import java.util.Collection;

import com.jayway.jsonpath.spi.json.Jackson3JsonNodeJsonProvider;
import tools.jackson.databind.ObjectMapper;

/**
 * Jackson 3 trees for JSONPath, checking the evaluation's deadline on every step into the document, so that no query
 * (a deep scan of a large document, nested filters) runs past it.
 */
final class BoundedJsonProvider extends Jackson3JsonNodeJsonProvider {

    private final Deadline deadline;

    BoundedJsonProvider(ObjectMapper mapper, Deadline deadline) {
        super(mapper);
        this.deadline = deadline;
    }

    @Override
    public Object getMapValue(Object object, String key) {
        tick();
        return super.getMapValue(object, key);
    }

    @Override
    public Object getArrayIndex(Object object, int index) {
        tick();
        return super.getArrayIndex(object, index);
    }

    @Override
    public Iterable<?> toIterable(Object object) {
        tick();
        return super.toIterable(object);
    }

    @Override
    public Collection<String> getPropertyKeys(Object object) {
        tick();
        return super.getPropertyKeys(object);
    }

    @Override
    public int length(Object object) {
        tick();
        return super.length(object);
    }

    private void tick() {
        deadline.check("the JSONPath query");
    }
}
