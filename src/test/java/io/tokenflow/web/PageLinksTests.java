package io.tokenflow.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class PageLinksTests {

    @Test
    void saysWhichRowsOfHowManyAndLinksTheNeighboursKeepingTheFilters() {
        Map<String, String> filters = new LinkedHashMap<>();
        filters.put("q", "a&b c+d");
        filters.put("status", "");
        PageLinks second = PageLinks.of(2, 25, 60, 25, "/workflows", filters);

        assertThat(second.first()).isEqualTo(26);
        assertThat(second.last()).isEqualTo(50);
        assertThat(second.pages()).isEqualTo(3);
        assertThat(second.previous()).isEqualTo("/workflows?q=a%26b%20c%2Bd");
        assertThat(second.next()).isEqualTo("/workflows?q=a%26b%20c%2Bd&page=3");
        assertThat(second.paged()).isTrue();
    }

    @Test
    void aSinglePageHasNoLinksAndAnEmptyListNoRows() {
        PageLinks only = PageLinks.of(1, 25, 3, 3, "/runs", Map.of());
        assertThat(only.previous()).isNull();
        assertThat(only.next()).isNull();
        assertThat(only.paged()).isFalse();
        PageLinks none = PageLinks.of(1, 25, 0, 0, "/runs", Map.of());
        assertThat(none.first()).isZero();
        assertThat(none.pages()).isEqualTo(1);
    }

    @Test
    void refusesPageNumbersBelowOneOrNotNumbers() {
        assertThat(PageLinks.number(null)).isEqualTo(1);
        assertThat(PageLinks.number(" 4 ")).isEqualTo(4);
        assertThatThrownBy(() -> PageLinks.number("0")).isInstanceOf(BadRequestException.class)
                .hasMessage("Expected page to be a whole number from 1, but found '0'");
        assertThatThrownBy(() -> PageLinks.number("two")).isInstanceOf(BadRequestException.class);
    }
}
