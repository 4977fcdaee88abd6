// A seat's page: a WebSocket to the server, opened with the seat's token (the link's #fragment,
// which browsers never send over the network), and the state the server sends drawn as it is.
// It shows only what the server sends, and the server sends only what the seat may see.
"use strict";

const [, , tableId, seatText] = location.pathname.split("/");
const seat = Number(seatText);
const token = decodeURIComponent(location.hash.slice(1));
const FINAL = new Set([4400, 4403, 4404, 4408]);  // refusals a new try cannot mend
let socket = null;
let tries = 0;
let stopped = false;

const $ = (id) => document.getElementById(id);

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;  // text, never markup
  if (className) node.className = className;
  return node;
}

function status(text, turn = false) {
  $("status").textContent = text;
  $("status").classList.toggle("turn", turn);
}

function answer(text, bad) {
  $("answer").textContent = text;
  $("answer").classList.toggle("bad", bad);
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else answer("not connected; trying again…", true);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws/${tableId}/${seat}`);
  socket.onopen = () => { tries = 0; socket.send(JSON.stringify({ type: "hello", token })); };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (stopped || FINAL.has(event.code)) return;
    const wait = Math.min(8000, 400 * 2 ** tries++);
    status(`connection lost; trying again in ${Math.ceil(wait / 1000)} s`);
    setTimeout(connect, wait);
  };
}

function receive(message) {
  if (message.type === "state") draw(message);
  else if (message.type === "reply") { if (message.text) answer(message.text, !message.ok); }
  else if (message.type === "refused") { status(message.text); answer(message.text, true); }
}

function cards(faces) {
  const span = el("span");
  for (const face of faces) span.append(el("span", face, "card"));
  return span;
}

function zone(content) {
  if (!Array.isArray(content)) {  // hidden from this seat: a count
    const piles = content.piles !== undefined && content.count ? ` in ${content.piles} piles` : "";
    return el("span", `${content.count} card${content.count === 1 ? "" : "s"}${piles}`, "count");
  }
  if (content.length === 0) return el("span", "–", "count");
  if (Array.isArray(content[0])) {
    const span = el("span");
    content.forEach((pile, index) => {
      const node = el("span", null, "pile");
      node.append(el("span", `${index}:`, "pile-number"), cards(pile));
      span.append(node);
    });
    return span;
  }
  return cards(content);
}

function draw(state) {
  const view = state.view;
  document.title = `${state.title} · seat ${state.seat}`;
  $("title").textContent = `${state.title} · round ${view.round + 1} · you are seat ${state.seat}`;
  if (state.broken) status(`the match cannot go on: ${state.broken}`);
  else if (view.over) status("the match is over");
  else if (view.to_move === state.seat) status(view.window ? "you may respond, or pass" : "your turn", true);
  else status(view.window ? `seat ${view.to_move} may respond` : `seat ${view.to_move} to move`);

  const perSeat = state.zones.filter((z) => z.per_seat);
  const seats = $("seats");
  seats.replaceChildren();
  const head = el("tr");
  for (const name of ["seat", "total", ...perSeat.map((z) => z.name)]) head.append(el("th", name));
  seats.append(head);
  for (let s = 0; s < view.players; s++) {
    const row = el("tr", null, (s === state.seat ? "me " : "") + (s === view.to_move ? "to-move" : ""));
    row.dataset.seat = s;
    row.append(el("td", `${s} ${s === state.seat ? "you" : state.kinds[s]}`), el("td", String(view.totals[s])));
    for (const z of perSeat) {
      const cell = el("td");
      cell.dataset.zone = z.name;
      cell.append(zone(view.zones[z.name][s]));
      row.append(cell);
    }
    seats.append(row);
  }
  const shared = $("shared");
  shared.replaceChildren();
  for (const z of state.zones.filter((z) => !z.per_seat)) {
    const content = view.zones[z.name];
    const dd = el("dd");
    dd.dataset.zone = z.name;
    dd.append(zone(Array.isArray(content) && content.length > 12 ? content.slice(-12) : content));
    shared.append(el("dt", z.name), dd);
  }

  const moves = $("moves");
  moves.replaceChildren();
  const groups = new Map();
  state.moves.forEach((move, index) => {
    const [play, card] = move.split(" ");
    const key = card && !card.startsWith("@") ? `${play} ${card}` : play;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push([index + 1, move, move.slice(key.length).trim()]);
  });
  for (const [key, list] of groups) {
    const line = el("div", null, "group");
    line.append(el("span", key, "group-name"));
    for (const [number, move, target] of list) {
      const button = el("button", target || key);
      button.type = "button";
      button.title = `${number}: ${move}`;
      button.dataset.move = move;
      button.addEventListener("click", () => send({ type: "move", move }));
      line.append(button);
    }
    moves.append(line);
  }
  if (!state.moves.length) moves.append(el("p", view.over ? "no more moves" : "not your turn", "count"));

  const rounds = $("rounds");
  rounds.replaceChildren();
  const top = el("tr");
  top.append(el("th", "round"));
  for (let s = 0; s < view.players; s++) top.append(el("th", s === state.seat ? `${s} you` : `${s}`));
  top.append(el("th", "ended by"));
  rounds.append(top);
  for (const r of state.rounds) {
    const row = el("tr");
    row.append(el("td", String(r.round + 1)));
    r.scores.forEach((score, s) => row.append(el("td", `${score >= 0 ? "+" : ""}${score} → ${r.totals[s]}`)));
    row.append(el("td", r.reason));
    rounds.append(row);
  }
  const result = $("result");
  if (state.winners) {
    const names = state.winners.map((s) => (s === state.seat ? "you" : `seat ${s}`)).join(" and ");
    result.textContent = `match over after ${state.rounds.length} rounds: ${names} ${state.winners.length === 1 ? "win" + (state.winners[0] === state.seat ? "" : "s") : "share the win"} with ${view.totals[state.winners[0]]}`;
  } else result.textContent = `totals: ${view.totals.join(" · ")}`;

  const log = $("log");
  log.replaceChildren();
  for (const entry of state.log) {
    const item = el("li", `seat ${entry.seat === state.seat ? `${entry.seat} (you)` : entry.seat}: ${entry.move}`,
                    entry.seat === state.seat ? "mine" : "");
    item.value = entry.number;
    if (entry.told.length) {
      const told = el("ul", null, "told");
      for (const line of entry.told) told.append(el("li", line));
      item.append(told);
    }
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

$("typed").addEventListener("submit", (event) => {
  event.preventDefault();
  const line = $("line").value.trim();
  if (!line) return;
  const [word, ...rest] = line.split(/\s+/);
  if (word === "why") send({ type: "why", move: rest.join(" ") });
  else if (word === "card") send({ type: "card", name: rest.join(" ") });
  else send({ type: "move", move: line });
  $("line").value = "";
});

if (!token) status("this link has no seat token: open the link the server printed for your seat");
else connect();
