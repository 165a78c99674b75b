package io.tokenflow.web;

import java.util.Map;

import org.springframework.web.util.UriComponentsBuilder;

/**
 * What a list page's pager shows (the layout's {@code pager} fragment): which rows of how many, and the links to the
 * previous and next pages, keeping the list's filters in the query. Pages are numbered from 1 in URLs.
 *
 * @param number   this page, from 1
 * @param pages    how many pages there are (at least 1)
 * @param total    how many rows pass the filters
 * @param first    the first row shown, from 1 (0 when there is none)
 * @param last     the last row shown
 * @param previous the previous page's URL, or {@code null} on the first
 * @param next     the next page's URL, or {@code null} on the last
 */
public record PageLinks(int number, int pages, long total, long first, long last, String previous, String next) {

    /** Page numbers from 1, as a URL's {@code page} parameter gives them; anything else is refused. */
    public static int number(String page) {
        try {
            int number = page == null || page.isBlank() ? 1 : Integer.parseInt(page.trim());
            if (number >= 1) {
                return number;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new BadRequestException("Expected page to be a whole number from 1, but found '" + page + "'",
                "query:page");
    }

    /**
     * @param number  the page shown, from 1
     * @param size    rows per page
     * @param total   rows passing the filters
     * @param shown   rows on this page
     * @param path    the list's path
     * @param filters the list's query parameters other than {@code page} (blank values are left out)
     */
    public static PageLinks of(int number, int size, long total, int shown, String path, Map<String, String> filters) {
        int pages = (int) Math.max(1, (total + size - 1) / size);
        long first = shown == 0 ? 0 : (long) (number - 1) * size + 1;
        return new PageLinks(number, pages, total, first, first == 0 ? 0 : first + shown - 1,
                number > 1 ? link(path, filters, number - 1) : null,
                number < pages ? link(path, filters, number + 1) : null);
    }

    /** Whether there is more than one page. */
    public boolean paged() {
        return pages > 1;
    }

    private static String link(String path, Map<String, String> filters, int page) {
        UriComponentsBuilder uri = UriComponentsBuilder.fromPath(path);
        Map<String, Object> values = new java.util.HashMap<>();
        filters.forEach((name, value) -> {
            if (value != null && !value.isBlank()) {
                uri.queryParam(name, "{" + name + "}");
                values.put(name, value);
            }
        });
        if (page > 1) {
            uri.queryParam("page", page);
        }
        // values are expanded into the encoded template: '&', '+' and '=' in a filter stay part of its value
        return uri.encode().buildAndExpand(values).toUriString();
    }
}
