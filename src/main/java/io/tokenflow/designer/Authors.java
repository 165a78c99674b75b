package io.tokenflow.designer;

import java.security.Principal;

/** Who made a change, as recorded in history. */
final class Authors {

    private Authors() {
    }

    static String of(Principal principal) {
        return principal == null ? "anonymous" : principal.getName();
    }
}
