// Web Worker: holds the tables' values and runs the IDA* search so that the
// page stays responsive. Messages:
//   in  { type: 'tables', tables: [{ w, h, goal, tiles, values: ArrayBuffer }] }
//   in  { type: 'solve', id, board: number[], fromBlankFirst }
//   out { type: 'ready' } | { type: 'iteration', id, bound, nodes }
//   out { type: 'solved', id, result: { solvable, length, moves, nodes }, ms } | { type: 'error', id, message }
import { Pattern } from '../readers/js/rank.mjs';
import { Solver } from '../readers/js/solver.mjs';

let solver = null;

self.onmessage = (ev) => {
  const msg = ev.data;
  try {
    if (msg.type === 'tables') {
      const tables = msg.tables.map((t) => ({ pattern: new Pattern(t.w, t.h, t.goal, t.tiles), values: new Uint8Array(t.values) }));
      solver = new Solver(tables, { reflect: true });
      self.postMessage({ type: 'ready' });
    } else if (msg.type === 'solve') {
      if (!solver) throw new Error('tables not loaded');
      const t0 = performance.now();
      const result = solver.solve(msg.board, {
        fromBlankFirst: msg.fromBlankFirst,
        onIteration: (bound, nodes) => self.postMessage({ type: 'iteration', id: msg.id, bound, nodes }),
      });
      self.postMessage({ type: 'solved', id: msg.id, result, ms: performance.now() - t0 });
    }
  } catch (e) {
    self.postMessage({ type: 'error', id: msg.id, message: String(e && e.message ? e.message : e) });
  }
};
