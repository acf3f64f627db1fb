/* mazekit page, figures.js: the board figures that cost more than a search (dead ends,
 * loops, betweenness and its Gini, the cop number) and the planner steps ("Close the busiest
 * passage", "Relieve"), computed away from the page's thread. The page starts a Web Worker
 * from the text of this script block (board.js, graph.js, cops.js and this file); in the
 * worker this file answers the page's messages, in the page it only adds `mk.figures` (used
 * when a worker cannot be started). */
"use strict";
(function (mk) {
  /** The board of a message: the walls, the "42" cells, entry and exit. */
  function boardOf(message) {
    const { width, height, walls, pattern, entry, exit } = message.board;
    const mask = new Uint8Array(width * height);
    for (const [x, y] of pattern) mask[y * width + x] = 1;
    return new mk.board.Board(width, height, new Uint8Array(walls), entry, exit, "", mask);
  }

  /** The answer to one message: {task: "figures" | "busiest" | "relieve", board, rules}. */
  function answer(message) {
    const board = boardOf(message), rules = message.rules;
    const reach = mk.board.distances(board, board.entry[0], board.entry[1]);
    if (message.task === "busiest") return { busiest: mk.graph.busiest(board, reach, rules) };
    if (message.task === "relieve") {
      return { relieve: mk.graph.relieve(board, reach, { ...rules.relieve, board: rules.board }) };
    }
    const graph = mk.graph.measures(board, reach, rules.exactLimit, rules.tolerance);
    return {
      deadEnds: mk.board.deadEnds(board, reach),
      loops: mk.board.loops(board),
      graph: graph && { ...graph, values: Array.from(graph.values) },
      cop: mk.cops.copNumber(board, reach, rules.copLimit),
    };
  }

  mk.figures = { answer };
  if (typeof document === "undefined" && typeof postMessage === "function") {
    globalThis.onmessage = (event) => {
      postMessage({ id: event.data.id, ...answer(event.data) });
    };
  }
})(globalThis.mazekit ??= {});
