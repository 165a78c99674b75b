package io.tokenflow.workers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.tokenflow.support.NodeSdk;

/**
 * The Node worker SDK's own tests ({@code sdk/node/test}, Node's test runner against real {@code redis-server}s they
 * start), run with the build so that CI runs them; their summary is printed.
 */
class NodeSdkTests {

    @Test
    void theNodeSdkPassesItsOwnTests() throws Exception {
        NodeSdk.ensureInstalled();

        NodeSdk.Result tests = NodeSdk.run(List.of("npm", "test"), 300);

        tests.output().lines().filter(line -> line.matches("^# (tests|pass|fail|duration_ms) .*"))
                .forEach(line -> System.out.println("Node SDK " + line.substring(2)));
        assertThat(tests.exitCode()).as(tests.output()).isZero();
    }
}
