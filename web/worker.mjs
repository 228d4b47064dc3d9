// Web Worker: holds the tables' values and runs the IDA* search so that the
// page stays responsive. It imports the tilepdb package's solver and rank
// modules from the URLs the page resolved through its import map
// (worker.mjs?solver=URL&rank=URL): module workers do not see the page's
// import map. Messages:
//   in  { type: 'tables', tables: [{ w, h, goal, tiles, values: ArrayBuffer, zeroAware }],
//         parts: [{ table, map: null | { cell, src } }], partitions: null | number[][], reflect }
//         (partitions: a catalogue's, indices into parts; the heuristic is the
//         maximum over them of their sums)
//   in  { type: 'solve', id, board: number[], convert }   (convert: the board is
//         in the other of blank-first/blank-last than the tables)
//   out { type: 'ready' } | { type: 'iteration', id, bound, nodes }
//   out { type: 'solved', id, result: { solvable, length, moves, nodes }, ms } | { type: 'error', id, message }
const params = new URL(self.location.href).searchParams;
const modules = Promise.all([import(params.get('solver')), import(params.get('rank'))]);

let solver = null;

self.onmessage = async (ev) => {
  const msg = ev.data;
  try {
    const [{ Solver }, { Pattern }] = await modules;
    if (msg.type === 'tables') {
      const tables = msg.tables.map((t) => ({ pattern: new Pattern(t.w, t.h, t.goal, t.tiles), values: new Uint8Array(t.values), zeroAware: !!t.zeroAware }));
      solver = new Solver(msg.parts.map((p) => ({ ...tables[p.table], map: p.map })), { reflect: msg.reflect, partitions: msg.partitions ?? undefined });
      self.postMessage({ type: 'ready' });
    } else if (msg.type === 'solve') {
      if (!solver) throw new Error('tables not loaded');
      const t0 = performance.now();
      const result = solver.solve(msg.board, {
        fromBlankFirst: msg.convert,
        onIteration: (bound, nodes) => self.postMessage({ type: 'iteration', id: msg.id, bound, nodes }),
      });
      self.postMessage({ type: 'solved', id: msg.id, result, ms: performance.now() - t0 });
    }
  } catch (e) {
    self.postMessage({ type: 'error', id: msg.id, message: String(e && e.message ? e.message : e) });
  }
};
