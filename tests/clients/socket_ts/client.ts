// A socket client written against the frame types modelina generates from
// openapi/asyncapi.yaml (./frames.ts, made by tests/clients/generate-frames.mjs): it opens a
// table against the Planner, starts it and plays its seat to the match's end over the socket,
// then prints the final status. Usage: node client.js <http base url> <ws base url>
import type {
  AuthFrame,
  DrawOption,
  MoveFrame,
  NextHandFrame,
  PassOption,
  PlayOption,
  StartFrame,
  Table,
} from "./frames.js";

type Request = AuthFrame | MoveFrame | NextHandFrame | StartFrame;
type Option = PlayOption | DrawOption | PassOption;

const [base, wsBase] = process.argv.slice(2);

async function post(path: string, body: object, token?: string): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const answer = await fetch(`${base}${path}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as Record<string, unknown>;
}

const player = await post("/v1/players", { name: "Tess" });
const token = String(player.token);
const seats = [{ type: "human" }, { type: "bot", strategy: "planner" }];
const match = await post(
  "/v1/matches",
  { ruleset: "all-fives", seats, options: { target: 60 } },
  token,
);

const socket = new WebSocket(`${wsBase}/v1/matches/${String(match.id)}/ws`);
let requests = 0;
let seat = -1;
let seq = 0;
let moves = 0;

function send(frame: Request): void {
  socket.send(JSON.stringify(frame));
}

function nextId(): string {
  requests += 1;
  return `t${requests}`;
}

function move(options: Option[]): void {
  const option = options[0];
  const frame: MoveFrame = { type: "move", id: nextId(), action: option.action, seq, seat };
  if ("tile" in option && option.tile) frame.tile = option.tile;
  if ("end" in option) frame.end = option.end;
  moves += 1;
  send(frame);
}

function finish(status: string): void {
  console.log(JSON.stringify({ status, moves, match: match.id, token }));
  socket.close();
}

function onFrame(frame: Table): void {
  switch (frame.type) {
    case "snapshot": {
      const view = frame.view;
      seq = view.seq;
      seat = view.you ? view.you.seat : -1;
      if (view.status === "waiting") send({ type: "start", id: nextId(), fill_with_bots: false });
      if (view.turn && view.turn.seat === seat && view.legal.length) move(view.legal);
      return;
    }
    case "event": {
      const event = frame.event;
      seq = event.seq;
      if (event.type === "turn" && event.data.seat === seat && event.data.legal)
        move(event.data.legal);
      else if (event.type === "tile_drawn" && event.data.seat === seat && event.data.legal)
        move(event.data.legal);
      else if (event.type === "hand_ended") send({ type: "next_hand", id: nextId() });
      else if (event.type === "match_ended") {
        const over = event.data.reason === "abandoned" || event.data.reason === "cancelled";
        finish(over ? event.data.reason : "finished");
      }
      return;
    }
    case "error":
      console.error(`refused: ${frame.error.code}: ${frame.error.detail}`);
      process.exit(1);
  }
}

socket.addEventListener("open", () => send({ type: "auth", token }));
socket.addEventListener("message", (message) => onFrame(JSON.parse(String(message.data)) as Table));
socket.addEventListener("close", () => process.exit(0));
