#!/usr/bin/env node
// A front end in another language: plays one seat of a game on the fandonia_env game server,
// either with random legal moves or by asking the stdio bot (python -m fandonia_env.bot) for them.
//
//   node examples/play_with_bot.mjs --server http://127.0.0.1:8000 [--agent noble-rule-v1]
//        [--python python3] [--players 3] [--seed 1] [--max-turns 2]
//
// Node 18+ (global fetch); no package to install. Prints one JSON line with the outcome.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
if (!args.server) {
  console.error("usage: node play_with_bot.mjs --server URL [--agent ID] [--python PY] [--players N] [--seed S]");
  process.exit(2);
}
const server = args.server.replace(/\/$/, "");
const players = Number(args.players ?? 3);
const seed = Number(args.seed ?? 1);
const maxTurns = Number(args["max-turns"] ?? 2);

async function http(method, path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(server + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${json.error}: ${json.detail}`);
  return json;
}

// The stdio bot: one JSON request per line, one JSON reply per line.
function startBot(agent, python) {
  const proc = spawn(python, ["-m", "fandonia_env.bot", "--agent", agent], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: proc.stdout });
  const waiting = [];
  lines.on("line", (line) => waiting.shift()(JSON.parse(line)));
  const ask = (req) => new Promise((resolve) => { waiting.push(resolve); proc.stdin.write(JSON.stringify(req) + "\n"); });
  return { ask, proc };
}

const seats = ["human", ...Array(players - 1).fill("noble-rule-v1")];
const game = await http("POST", "/games", { seats, seed, rules: { max_turns: maxTurns } });
const gid = game.game_id;
const token = game.seats[0].token;
let bot = null;
if (args.agent) {
  bot = startBot(args.agent, args.python ?? "python3");
  const hello = await bot.ask({ cmd: "hello" });
  if (hello.reply !== "hello") throw new Error(`bot handshake failed: ${JSON.stringify(hello)}`);
  const ok = await bot.ask({ cmd: "new_game", players, seat: 0, seed, rules: { max_turns: maxTurns } });
  if (ok.reply !== "ok") throw new Error(`new_game refused: ${JSON.stringify(ok)}`);
}

let actions = 0;
let state = await http("GET", `/games/${gid}/seats/0`, undefined, token);
while (state.status === "playing") {
  if (!state.decision) {            // the nobles are moving on the server
    await new Promise((r) => setTimeout(r, 10));
    state = await http("GET", `/games/${gid}/seats/0`, undefined, token);
    continue;
  }
  const legal = state.decision.options.map((o) => o.id);
  let action;
  if (bot) {
    const pos = await bot.ask({ cmd: "position", view: state.view, legal });
    if (pos.reply !== "ok") throw new Error(`position refused: ${JSON.stringify(pos)}`);
    const go = await bot.ask({ cmd: "go" });
    if (go.reply !== "action") throw new Error(`go refused: ${JSON.stringify(go)}`);
    action = go.action;
  } else {
    action = legal[Math.floor(Math.random() * legal.length)];
  }
  state = await http("POST", `/games/${gid}/seats/0/act`, { action, step: state.step }, token);
  actions += 1;
}
if (bot) {
  await bot.ask({ cmd: "quit" });
  bot.proc.stdin.end();
}
console.log(JSON.stringify({ game_id: gid, actions, status: state.status, result: state.view.result,
  winner: state.view.winner }));
