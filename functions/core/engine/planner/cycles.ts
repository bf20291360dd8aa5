import type { PlanNode } from './plan';

/**
 * Every component on a dependency cycle, with a message naming the whole cycle path through
 * it (`Dependency cycle: a -> b -> c -> a`). Strongly connected components (Tarjan, iterative
 * so that chains of any length cannot overflow the stack) find who is on a cycle; a
 * breadth-first walk inside the component finds the shortest cycle through each member.
 */
export function findCycles(nodes: ReadonlyMap<string, PlanNode>): Map<string, string> {
  const cycles = new Map<string, string>();
  for (const scc of stronglyConnected(nodes)) {
    if (scc.length < 2) continue;
    const members = new Set(scc);
    for (const start of scc) {
      const path = shortestCycle(start, members, nodes);
      cycles.set(start, `Dependency cycle: ${path.join(' -> ')}`);
    }
  }
  return cycles;
}

function shortestCycle(start: string, members: Set<string>, nodes: ReadonlyMap<string, PlanNode>): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i];
    for (const next of nodes.get(at)?.dependsOn ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const between: string[] = [];
        for (let step = at; step !== start; step = parent.get(step)!) between.unshift(step);
        return [start, ...between, start];
      }
      if (!parent.has(next)) {
        parent.set(next, at);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

function stronglyConnected(nodes: ReadonlyMap<string, PlanNode>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result: string[][] = [];
  let counter = 0;

  for (const root of [...nodes.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { code: string; next: number }[] = [{ code: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const deps = (nodes.get(frame.code)?.dependsOn ?? []).filter((d) => nodes.has(d));
      if (frame.next < deps.length) {
        const dep = deps[frame.next++];
        if (!index.has(dep)) {
          index.set(dep, counter);
          low.set(dep, counter++);
          stack.push(dep);
          onStack.add(dep);
          work.push({ code: dep, next: 0 });
        } else if (onStack.has(dep)) {
          low.set(frame.code, Math.min(low.get(frame.code)!, index.get(dep)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const caller = work[work.length - 1].code;
        low.set(caller, Math.min(low.get(caller)!, low.get(frame.code)!));
      }
      if (low.get(frame.code) === index.get(frame.code)) {
        const scc: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          scc.push(member);
        } while (member !== frame.code);
        result.push(scc);
      }
    }
  }
  return result;
}
