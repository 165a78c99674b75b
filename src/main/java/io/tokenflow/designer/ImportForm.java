package io.tokenflow.designer;

import java.util.List;

import io.tokenflow.web.BadRequestException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The import forms on the workflows page: a graph DSL document or a seed-004 plan, uploaded or pasted, optionally
 * saved under another name. An uploaded file's text is kept so that it can be corrected and pasted again.
 *
 * @param fileName the uploaded file's name, or {@code null} when the document was pasted
 */
public record ImportForm(String json, String saveAs, String fileName, FormProblems problems) {

    /** The document members this form has a field for ("save as" names the workflow). */
    static final List<String> FIELDS = List.of("name");

    public ImportForm {
        json = json == null ? "" : json;
        saveAs = saveAs == null ? "" : saveAs;
        problems = problems == null ? FormProblems.none() : problems;
    }

    static ImportForm empty() {
        return new ImportForm("", "", null, FormProblems.none());
    }

    static ImportForm pasted(String json, String saveAs) {
        return new ImportForm(json, saveAs, null, FormProblems.none());
    }

    static ImportForm uploaded(String fileName, String json, String saveAs) {
        return new ImportForm(json, saveAs, fileName == null || fileName.isBlank() ? "the file" : fileName,
                FormProblems.none());
    }

    public boolean fromFile() {
        return fileName != null;
    }

    ImportForm withProblems(FormProblems found) {
        return new ImportForm(json, saveAs, fileName, found);
    }

    /** The submitted document, renamed to {@code saveAs} when one is given. */
    JsonNode document(WorkflowDocuments documents) {
        if (json.isBlank()) {
            throw new BadRequestException(fromFile() ? "Expected a workflow in '" + fileName + "', but it is empty"
                    : "Expected a workflow document in the box, but it is empty", "");
        }
        JsonNode document = documents.parse(json);
        if (!saveAs.isBlank() && document instanceof ObjectNode object) {
            object.put("name", saveAs.trim());
        }
        return document;
    }
}
