// Reads a `lockstep profile` trace with Chrome DevTools' trace engine (the Performance panel's
// parser, @paulirish/trace_engine) and checks what it made of it: the process and thread names,
// every expected phase once per tick with its tick argument, each phase inside its tick's step,
// and the entity-count counters.
//
// usage: node check-trace.mjs TRACE.json PHASE,PHASE,... TICKS
// Exit 0 when it holds, 1 when not; 77 (the suite's skip) when the engine is not installed.
import fs from 'node:fs';

let Trace, polyfillDOMRect;
try {
  Trace = await import('@paulirish/trace_engine');
  ({polyfillDOMRect} = await import('@paulirish/trace_engine/analyze-trace.mjs'));
} catch (e) {
  console.log(`SKIP: Chrome DevTools' trace engine is not installed (tools/setup test runs npm ci in tests/trace-consumer): ${e.message}`);
  process.exit(77);
}

const [path, phaseList, ticksText] = process.argv.slice(2);
const phases = phaseList.split(',');
const ticks = Number(ticksText);
const failures = [];
const check = (ok, what) => { if (!ok) failures.push(what); };

polyfillDOMRect();  // the engine expects a browser's DOMRect
const file = JSON.parse(fs.readFileSync(path, 'utf8'));
const model = Trace.TraceModel.Model.createWithAllHandlers();
await model.parse(file.traceEvents);
const parsed = model.parsedTrace();
check(parsed && parsed.data, 'the engine gave no parsed trace');
const data = parsed.data;

// The renderer handler's view: one process, its "simulation" thread, its entries and their tree.
const threads = [];
for (const [, proc] of data.Renderer.processes) for (const [, th] of proc.threads) threads.push(th);
const sim = threads.find(t => t.name === 'simulation');
check(sim, `no thread named "simulation" (threads: ${threads.map(t => t.name).join(', ')})`);
const names = data.Meta.processNames ? [...data.Meta.processNames.values()].map(e => e.args?.name) : [];
check(names.some(n => typeof n === 'string' && n.startsWith('lockstep profile: ')),
      `no process named "lockstep profile: ..." (${JSON.stringify(names)})`);

if (sim) {
  const entries = sim.entries;
  const steps = new Map();
  for (const e of entries) if (e.name === 'step') steps.set(e.args.tick, e);
  check(steps.size === ticks, `${steps.size} steps, expected ${ticks}`);
  for (const p of phases) {
    const got = entries.filter(e => e.name === p);
    check(got.length === ticks, `phase ${p}: ${got.length} events, expected ${ticks}`);
    check(got.every(e => steps.has(e.args.tick)), `phase ${p}: an event whose tick has no step`);
    // The engine's own tree: the phase's parent is its tick's step.
    const parents = got.map(e => data.Renderer.entryToNode.get(e)?.parent?.entry);
    check(parents.every((par, i) => par && par.name === 'step' && par.args.tick === got[i].args.tick),
          `phase ${p}: not every event sits in its own tick's step`);
  }
}

// Counters: the engine keeps the trace's events; the entity count, one per tick.
const counters = parsed.traceEvents.filter(e => e.ph === 'C' && e.name === 'entities');
check(counters.length === ticks && counters.every(e => Number.isInteger(e.args.entities)),
      `${counters.length} entity counters, expected ${ticks}`);

if (failures.length) {
  for (const f of failures) console.log(`FAIL ${f}`);
  process.exit(1);
}
console.log(`ok   ${path}: ${phases.length} phases x ${ticks} ticks read by the trace engine`);
