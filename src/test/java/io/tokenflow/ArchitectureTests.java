package io.tokenflow;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Keeps the engine plain Java and the code organised by feature. */
class ArchitectureTests {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.tokenflow");
    }

    @Test
    void engineHasNoSpringJpaOrRedisTypes() {
        noClasses().that().resideInAPackage("io.tokenflow.engine..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "org.springframework..", "jakarta.persistence..", "org.hibernate..",
                        "io.lettuce..", "redis.clients..", "org.springframework.data.redis..", "jakarta.servlet..")
                .because("the engine is plain, deterministic Java; infrastructure adapts around it")
                .check(classes);
    }

    @Test
    void engineDependsOnNoOtherFeature() {
        noClasses().that().resideInAPackage("io.tokenflow.engine..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.tokenflow.designer..", "io.tokenflow.runs..", "io.tokenflow.coordinator..",
                        "io.tokenflow.supervisor..", "io.tokenflow.workers..", "io.tokenflow.approvals..",
                        "io.tokenflow.agents..", "io.tokenflow.web..", "io.tokenflow.security..",
                        "io.tokenflow.nodetypes..", "io.tokenflow.embedded..")
                .check(classes);
    }

    @Test
    void hasNoLayerOrUtilityPackages() {
        noClasses().should().resideInAnyPackage("io.tokenflow.controller..", "io.tokenflow.service..",
                        "io.tokenflow.repository..", "io.tokenflow.dto..", "..util..", "..utils..", "..common..",
                        "..helper..", "..helpers..")
                .because("code is packaged by feature")
                .allowEmptyShould(true)
                .check(classes);
    }

    /** Each package (a feature, or a part of one) may use others, but never through a loop back to itself. */
    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("io.tokenflow.(**)").should().beFreeOfCycles().check(classes);
    }
}
