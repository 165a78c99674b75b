// Lays a graph out top to bottom with dagre, from ids and box sizes alone. The designer calls dagre itself rather than
// through cytoscape-dagre, which reads each node's size from cytoscape's computed style and then moves nodes already
// drawn: a workflow with no stored positions is laid out before its first render and drawn once, where it belongs.
(function (TF) {
  "use strict";

  var OPTIONS = {rankdir: "TB", nodesep: 70, ranksep: 110, edgesep: 20};

  /**
   * The centre of each node, by id. Nodes: [{id, width, height}], edges: [{id, source, target}], both in the order
   * they are drawn (dagre's result depends on it). An edge whose end is not among the nodes is left out.
   */
  function positions(nodes, edges) {
    var graph = new dagre.graphlib.Graph({multigraph: true});
    graph.setGraph(Object.assign({}, OPTIONS));
    graph.setDefaultEdgeLabel(function () { return {}; });
    nodes.forEach(function (node) {
      graph.setNode(node.id, {width: node.width, height: node.height});
    });
    edges.forEach(function (edge) {
      if (graph.hasNode(edge.source) && graph.hasNode(edge.target)) {
        graph.setEdge(edge.source, edge.target, {minlen: 1, weight: 1}, edge.id);
      }
    });
    dagre.layout(graph);
    var result = {};
    nodes.forEach(function (node) {
      var laid = graph.node(node.id);
      result[node.id] = {x: laid.x, y: laid.y};
    });
    return result;
  }

  TF.Layout = {positions: positions};
})(window.Tokenflow = window.Tokenflow || {});
