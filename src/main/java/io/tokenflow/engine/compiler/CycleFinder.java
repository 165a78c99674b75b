package io.tokenflow.engine.compiler;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Tarjan's strongly connected components, iterative so that deep graphs cannot overflow the stack. */
final class CycleFinder {

    private final Map<String, Set<String>> edges;
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> lowLink = new HashMap<>();
    private final Deque<String> stack = new ArrayDeque<>();
    private final Set<String> onStack = new HashSet<>();
    private final List<List<String>> cycles = new ArrayList<>();
    private int counter;

    CycleFinder(Map<String, Set<String>> edges) {
        this.edges = edges;
    }

    List<List<String>> cycles() {
        for (String node : edges.keySet()) {
            if (!index.containsKey(node)) {
                visit(node);
            }
        }
        return cycles;
    }

    private void visit(String root) {
        Deque<Map.Entry<String, Iterator<String>>> work = new ArrayDeque<>();
        open(root, work);
        while (!work.isEmpty()) {
            Map.Entry<String, Iterator<String>> frame = work.peek();
            String node = frame.getKey();
            if (frame.getValue().hasNext()) {
                String next = frame.getValue().next();
                if (!index.containsKey(next)) {
                    open(next, work);
                } else if (onStack.contains(next)) {
                    lowLink.merge(node, index.get(next), Math::min);
                }
                continue;
            }
            work.pop();
            if (!work.isEmpty()) {
                lowLink.merge(work.peek().getKey(), lowLink.get(node), Math::min);
            }
            if (lowLink.get(node).equals(index.get(node))) {
                closeComponent(node);
            }
        }
    }

    private void open(String node, Deque<Map.Entry<String, Iterator<String>>> work) {
        index.put(node, counter);
        lowLink.put(node, counter);
        counter++;
        stack.push(node);
        onStack.add(node);
        work.push(Map.entry(node, edges.get(node).iterator()));
    }

    private void closeComponent(String root) {
        Set<String> component = new HashSet<>();
        String member;
        do {
            member = stack.pop();
            onStack.remove(member);
            component.add(member);
        } while (!member.equals(root));
        if (component.size() > 1 || edges.get(root).contains(root)) {
            cycles.add(pathThrough(component));
        }
    }

    /** The shortest closed path through the component from its first node in authoring order. */
    private List<String> pathThrough(Set<String> component) {
        String start = edges.keySet().stream().filter(component::contains).findFirst().orElseThrow();
        Map<String, String> parent = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            String current = queue.poll();
            for (String next : edges.get(current)) {
                if (next.equals(start)) {
                    return closedPath(start, current, parent);
                }
                if (component.contains(next) && !parent.containsKey(next)) {
                    parent.put(next, current);
                    queue.add(next);
                }
            }
        }
        throw new IllegalStateException("Expected a strongly connected component to contain a cycle through " + start);
    }

    private static List<String> closedPath(String start, String last, Map<String, String> parent) {
        List<String> path = new ArrayList<>();
        for (String node = last; node != null && !node.equals(start); node = parent.get(node)) {
            path.add(0, node);
        }
        path.add(0, start);
        path.add(start);
        return path;
    }
}
