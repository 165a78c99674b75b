package io.tokenflow.designer;

/** The "set a tag" form on a workflow's page: the tag, the chosen version, and why it was refused. */
public record TagForm(String tag, Integer version, String error) {

    static TagForm empty() {
        return new TagForm("main", null, null);
    }
}
