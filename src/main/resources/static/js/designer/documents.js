// Workflow documents in the browser: JSON Pointers (RFC 6901), JSON Patch (RFC 6902) diff and apply, and the edits
// the canvas makes to a draft (add, remove, connect, rename, move, duplicate). Pure functions over plain JSON.
(function (TF) {
  "use strict";

  var ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

  function clone(value) {
    return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  function isObject(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  }

  // ---- JSON Pointer ----

  function tokens(pointer) {
    if (pointer === "") {
      return [];
    }
    if (pointer.charAt(0) !== "/") {
      throw new Error("Expected a JSON Pointer starting with '/', but found '" + pointer + "'");
    }
    return pointer.substring(1).split("/").map(function (token) {
      return token.replace(/~1/g, "/").replace(/~0/g, "~");
    });
  }

  function escape(token) {
    return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
  }

  function join(pointer, token) {
    return pointer + "/" + escape(token);
  }

  function get(document, pointer) {
    var value = document;
    var path = tokens(pointer);
    for (var i = 0; i < path.length; i++) {
      if (value === null || typeof value !== "object") {
        return undefined;
      }
      value = Array.isArray(value) ? value[Number(path[i])]
          : (Object.prototype.hasOwnProperty.call(value, path[i]) ? value[path[i]] : undefined);
    }
    return value;
  }

  /** Sets the value at the pointer, creating missing objects on the way; "-" appends to an array. */
  function set(document, pointer, value) {
    var path = tokens(pointer);
    var container = document;
    for (var i = 0; i < path.length - 1; i++) {
      var key = Array.isArray(container) ? Number(path[i]) : path[i];
      if (!container[key] || typeof container[key] !== "object") {
        container[key] = {};
      }
      container = container[key];
    }
    var last = path[path.length - 1];
    if (Array.isArray(container)) {
      if (last === "-") {
        container.push(value);
      } else {
        container[Number(last)] = value;
      }
    } else {
      container[last] = value;
    }
  }

  /** Removes the member or element at the pointer, then empty objects above it (never a node, an edge or the root). */
  function remove(document, pointer) {
    var path = tokens(pointer);
    var parentPointer = pointer.substring(0, pointer.lastIndexOf("/"));
    var parent = get(document, parentPointer);
    var last = path[path.length - 1];
    if (Array.isArray(parent)) {
      parent.splice(Number(last), 1);
      return;
    }
    if (isObject(parent)) {
      delete parent[last];
      if (Object.keys(parent).length === 0 && tokens(parentPointer).length > 2) {
        remove(document, parentPointer);
      }
    }
  }

  // ---- JSON Patch ----

  /** The RFC 6902 operations that turn a into b: members by name, arrays by longest common subsequence. */
  function diff(a, b) {
    var operations = [];
    diffValues(a, b, "", operations);
    return operations;
  }

  function diffValues(a, b, pointer, operations) {
    if (same(a, b)) {
      return;
    }
    if (isObject(a) && isObject(b)) {
      Object.keys(a).forEach(function (key) {
        if (!Object.prototype.hasOwnProperty.call(b, key)) {
          operations.push({op: "remove", path: join(pointer, key)});
        }
      });
      Object.keys(b).forEach(function (key) {
        if (!Object.prototype.hasOwnProperty.call(a, key)) {
          operations.push({op: "add", path: join(pointer, key), value: clone(b[key])});
        } else {
          diffValues(a[key], b[key], join(pointer, key), operations);
        }
      });
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      diffArrays(a, b, pointer, operations);
      return;
    }
    operations.push({op: "replace", path: pointer, value: clone(b)});
  }

  function diffArrays(a, b, pointer, operations) {
    var keysA = a.map(function (item) { return JSON.stringify(item); });
    var keysB = b.map(function (item) { return JSON.stringify(item); });
    var kept = commonSubsequence(keysA, keysB);
    var i = 0, j = 0, index = 0;
    while (i < a.length || j < b.length) {
      var aKept = i < a.length && kept.a[i];
      var bKept = j < b.length && kept.b[j];
      if (aKept && bKept) {
        i++; j++; index++;
      } else if (i < a.length && !aKept && j < b.length && !bKept) {
        diffValues(a[i], b[j], pointer + "/" + index, operations);
        i++; j++; index++;
      } else if (i < a.length && !aKept) {
        operations.push({op: "remove", path: pointer + "/" + index});
        i++;
      } else {
        operations.push({op: "add", path: pointer + "/" + index, value: clone(b[j])});
        j++; index++;
      }
    }
  }

  /** Which elements of each array are part of a longest common subsequence (by their JSON text). */
  function commonSubsequence(a, b) {
    var keptA = a.map(function () { return false; });
    var keptB = b.map(function () { return false; });
    var start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) {
      keptA[start] = keptB[start] = true;
      start++;
    }
    var endA = a.length, endB = b.length;
    while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
      endA--; endB--;
      keptA[endA] = keptB[endB] = true;
    }
    var n = endA - start, m = endB - start;
    if (n === 0 || m === 0 || n * m > 4000000) {
      return {a: keptA, b: keptB};
    }
    var table = [];
    for (var x = 0; x <= n; x++) {
      table.push(new Uint16Array(m + 1));
    }
    for (x = n - 1; x >= 0; x--) {
      for (var y = m - 1; y >= 0; y--) {
        table[x][y] = a[start + x] === b[start + y] ? table[x + 1][y + 1] + 1
            : Math.max(table[x + 1][y], table[x][y + 1]);
      }
    }
    x = 0; y = 0;
    while (x < n && y < m) {
      if (a[start + x] === b[start + y]) {
        keptA[start + x] = keptB[start + y] = true;
        x++; y++;
      } else if (table[x + 1][y] >= table[x][y + 1]) {
        x++;
      } else {
        y++;
      }
    }
    return {a: keptA, b: keptB};
  }

  /**
   * The patch from stored to draft with "test" guards: each change inside a node or an edge first tests that the
   * node (by id) or the edge is still where it was, so the patch fails rather than changes the wrong element when it
   * is applied to a version someone else changed meanwhile.
   */
  function guardedDiff(stored, draft) {
    var guarded = [];
    var tested = {};
    diff(stored, draft).forEach(function (operation) {
      var path = tokens(operation.path);
      var inElement = (path[0] === "nodes" || path[0] === "edges") && path.length >= 2
          && !(operation.op === "add" && path.length === 2);
      if (inElement) {
        var elementPointer = "/" + path[0] + "/" + path[1];
        var guard = path[0] === "nodes" ? elementPointer + "/id" : elementPointer;
        if (!tested[guard]) {
          tested[guard] = true;
          guarded.push({op: "test", path: guard, value: clone(get(stored, guard))});
        }
      }
      guarded.push(operation);
    });
    return guarded;
  }

  /** Applies add, remove, replace and test operations to a copy of the document; throws naming the failing one. */
  function apply(document, operations) {
    var result = clone(document);
    operations.forEach(function (operation, index) {
      var parentPointer = operation.path.substring(0, operation.path.lastIndexOf("/"));
      var exists = get(result, operation.path) !== undefined;
      if (operation.op === "test") {
        if (!same(get(result, operation.path), operation.value)) {
          throw new Error("Operation " + index + " expected " + operation.path + " to be "
              + JSON.stringify(operation.value) + ", but it is " + JSON.stringify(get(result, operation.path)));
        }
      } else if (operation.op === "remove" || operation.op === "replace") {
        if (!exists) {
          throw new Error("Operation " + index + " (" + operation.op + ") expected " + operation.path
              + " to exist, but it does not");
        }
        if (operation.op === "remove") {
          var parent = get(result, parentPointer);
          if (Array.isArray(parent)) {
            parent.splice(Number(tokens(operation.path).pop()), 1);
          } else {
            delete parent[tokens(operation.path).pop()];
          }
        } else {
          set(result, operation.path, clone(operation.value));
        }
      } else if (operation.op === "add") {
        var container = get(result, parentPointer);
        var last = tokens(operation.path).pop();
        if (Array.isArray(container)) {
          container.splice(last === "-" ? container.length : Number(last), 0, clone(operation.value));
        } else if (isObject(container) || parentPointer === "") {
          set(result, operation.path, clone(operation.value));
        } else {
          throw new Error("Operation " + index + " (add) expected " + parentPointer + " to exist, but it does not");
        }
      } else {
        throw new Error("Operation " + index + ": '" + operation.op + "' is not supported here");
      }
    });
    return result;
  }

  // ---- Workflow edits ----

  function nodes(document) {
    return Array.isArray(document.nodes) ? document.nodes : [];
  }

  function edges(document) {
    return Array.isArray(document.edges) ? document.edges : [];
  }

  function indexOfNode(document, id) {
    var list = nodes(document);
    for (var i = 0; i < list.length; i++) {
      if (list[i].id === id) {
        return i;
      }
    }
    return -1;
  }

  /** A free node id made from a base (a type name, or an id to copy): "http_1", "http_2", … */
  function freeId(document, base) {
    var stem = String(base).replace(/[^A-Za-z0-9_-]/g, "_").replace(/_\d+$/, "");
    if (!/^[A-Za-z_]/.test(stem)) {
      stem = "n_" + stem;
    }
    stem = stem.substring(0, 56);
    var taken = {};
    nodes(document).forEach(function (node) { taken[node.id] = true; });
    for (var n = 1; ; n++) {
      if (!taken[stem + "_" + n]) {
        return stem + "_" + n;
      }
    }
  }

  /** The lists of node ids a node routes to besides its edges (branch, loop and rejection paths). */
  function routeLists(node) {
    var lists = [];
    var branch = node.branch;
    if (isObject(branch)) {
      (Array.isArray(branch.rules) ? branch.rules : []).forEach(function (rule) {
        if (isObject(rule) && Array.isArray(rule.next_nodes)) {
          lists.push({label: rule.name || "rule", ids: rule.next_nodes});
        }
      });
      if (Array.isArray(branch.default)) {
        lists.push({label: "default", ids: branch.default});
      }
      if (Array.isArray(branch.available_next_nodes)) {
        lists.push({label: "agent", ids: branch.available_next_nodes});
      }
    }
    if (isObject(node.loop)) {
      ["break_path", "timeout_path"].forEach(function (name) {
        if (Array.isArray(node.loop[name])) {
          lists.push({label: name === "break_path" ? "break" : "timeout", ids: node.loop[name]});
        }
      });
    }
    if (isObject(node.human) && Array.isArray(node.human.rejection_path)) {
      lists.push({label: "rejected", ids: node.human.rejection_path});
    }
    return lists;
  }

  function addNode(document, starter, position) {
    var node = Object.assign({id: freeId(document, starter.type)}, clone(starter));
    node.ui = {x: Math.round(position.x), y: Math.round(position.y)};
    if (!Array.isArray(document.nodes)) {
      document.nodes = [];
    }
    document.nodes.push(node);
    return node.id;
  }

  /** Connects two nodes; false when they already are. */
  function addEdge(document, from, to) {
    var exists = edges(document).some(function (edge) { return edge.from === from && edge.to === to; });
    if (exists) {
      return false;
    }
    if (!Array.isArray(document.edges)) {
      document.edges = [];
    }
    document.edges.push({from: from, to: to});
    return true;
  }

  /** Removes nodes (and their edges and the routes naming them) and edges by index. */
  function removeElements(document, nodeIds, edgeIndexes) {
    var gone = {};
    nodeIds.forEach(function (id) { gone[id] = true; });
    var dropEdge = {};
    edgeIndexes.forEach(function (index) { dropEdge[index] = true; });
    if (Array.isArray(document.edges)) {
      document.edges = document.edges.filter(function (edge, index) {
        return !dropEdge[index] && !gone[edge.from] && !gone[edge.to];
      });
    }
    if (Array.isArray(document.nodes)) {
      document.nodes = document.nodes.filter(function (node) { return !gone[node.id]; });
      document.nodes.forEach(function (node) {
        routeLists(node).forEach(function (list) {
          for (var i = list.ids.length - 1; i >= 0; i--) {
            if (gone[list.ids[i]]) {
              list.ids.splice(i, 1);
            }
          }
        });
        if (isObject(node.loop) && gone[node.loop.loop_back_to]) {
          delete node.loop.loop_back_to;
        }
      });
    }
  }

  /** Renames a node everywhere: its edges, the routes naming it and ${nodes.<id>.…} references. */
  function renameNode(document, oldId, newId) {
    nodes(document).forEach(function (node) {
      if (node.id === oldId) {
        node.id = newId;
      }
      routeLists(node).forEach(function (list) {
        for (var i = 0; i < list.ids.length; i++) {
          if (list.ids[i] === oldId) {
            list.ids[i] = newId;
          }
        }
      });
      if (isObject(node.loop) && node.loop.loop_back_to === oldId) {
        node.loop.loop_back_to = newId;
      }
      ["input", "config"].forEach(function (member) {
        if (node[member] !== undefined) {
          node[member] = replaceReferences(node[member], oldId, newId);
        }
      });
    });
    edges(document).forEach(function (edge) {
      if (edge.from === oldId) {
        edge.from = newId;
      }
      if (edge.to === oldId) {
        edge.to = newId;
      }
    });
  }

  function replaceReferences(value, oldId, newId) {
    if (typeof value === "string") {
      return value.split("${nodes." + oldId + ".").join("${nodes." + newId + ".")
          .split("${nodes." + oldId + "}").join("${nodes." + newId + "}");
    }
    if (Array.isArray(value)) {
      return value.map(function (item) { return replaceReferences(item, oldId, newId); });
    }
    if (isObject(value)) {
      var copy = {};
      Object.keys(value).forEach(function (key) { copy[key] = replaceReferences(value[key], oldId, newId); });
      return copy;
    }
    return value;
  }

  function setPositions(document, positions) {
    nodes(document).forEach(function (node) {
      var position = positions[node.id];
      if (position) {
        node.ui = Object.assign(isObject(node.ui) ? node.ui : {}, {x: Math.round(position.x), y: Math.round(position.y)});
      }
    });
  }

  /** Copies nodes (and the edges among them) beside the originals; returns the new ids. */
  function duplicate(document, ids) {
    var renamed = {};
    var copies = [];
    ids.forEach(function (id) {
      var index = indexOfNode(document, id);
      if (index < 0) {
        return;
      }
      var copy = clone(document.nodes[index]);
      copy.id = freeId(document, id);
      renamed[id] = copy.id;
      var ui = isObject(copy.ui) ? copy.ui : {x: 0, y: 0};
      copy.ui = Object.assign(ui, {x: (ui.x || 0) + 40, y: (ui.y || 0) + 40});
      document.nodes.push(copy);
      copies.push(copy.id);
    });
    edges(document).slice().forEach(function (edge) {
      if (renamed[edge.from] && renamed[edge.to]) {
        document.edges.push(Object.assign(clone(edge), {from: renamed[edge.from], to: renamed[edge.to]}));
      }
    });
    return copies;
  }

  TF.Documents = {
    ID_PATTERN: ID_PATTERN,
    clone: clone,
    same: same,
    tokens: tokens,
    join: join,
    get: get,
    set: set,
    remove: remove,
    diff: diff,
    guardedDiff: guardedDiff,
    apply: apply,
    nodes: nodes,
    edges: edges,
    indexOfNode: indexOfNode,
    freeId: freeId,
    routeLists: routeLists,
    addNode: addNode,
    addEdge: addEdge,
    removeElements: removeElements,
    renameNode: renameNode,
    setPositions: setPositions,
    duplicate: duplicate
  };
})(window.Tokenflow = window.Tokenflow || {});
