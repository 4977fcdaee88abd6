// The lobby: pick a shipped ruleset, its edition and variants, and who plays each seat; the
// server opens the table and answers with a link per person's seat.
"use strict";

const $ = (id) => document.getElementById(id);
let offered = { rulesets: [], kinds: [] };

function el(tag, text) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

function option(select, value, text) {
  const node = el("option", text ?? value);
  node.value = value;
  select.append(node);
}

function ruleset() { return offered.rulesets.find((r) => r.name === $("ruleset").value); }

function fill() {
  const r = ruleset();
  $("edition").replaceChildren();
  if (!r.editions.length) option($("edition"), "", "—");
  for (const e of r.editions) option($("edition"), e);
  const variants = $("variants");
  variants.replaceChildren(el("legend", "Variants"));
  for (const v of r.variants) {
    const label = el("label");
    const box = el("input");
    box.type = "checkbox";
    box.value = v.name;
    label.append(box, ` ${v.name}`);
    variants.append(label);
  }
  if (!r.variants.length) variants.append(el("span", "none"));
  $("players").replaceChildren();
  for (const n of r.counts) option($("players"), String(n));
  seats();
}

function seats() {
  const kinds = $("kinds");
  const before = [...kinds.querySelectorAll("select")].map((s) => s.value);
  kinds.replaceChildren(el("legend", "Seats"));
  for (let s = 0; s < Number($("players").value); s++) {
    const label = el("label", `seat ${s} `);
    const select = el("select");
    for (const k of offered.kinds) option(select, k);
    select.value = before[s] || (s === 0 ? "human" : "ismcts");
    label.append(select);
    kinds.append(label);
  }
}

async function open(event) {
  event.preventDefault();
  const body = {
    ruleset: $("ruleset").value,
    edition: $("edition").value || null,
    variants: [...$("variants").querySelectorAll("input:checked")].map((b) => b.value),
    seats: [...$("kinds").querySelectorAll("select")].map((s) => s.value),
  };
  const response = await fetch("/api/tables", { method: "POST", body: JSON.stringify(body),
                                                headers: { "Content-Type": "application/json" } });
  const answer = await response.json();
  const links = $("links");
  links.replaceChildren();
  if (!response.ok) { links.append(el("p", answer.error)); return; }
  links.append(el("h2", `${answer.title}: table ${answer.table}`));
  const list = el("ul");
  for (const s of answer.seats) {
    const item = el("li", `seat ${s.seat} (${s.kind})`);
    if (s.url) {
      const link = el("a", new URL(s.url, location.href).href);
      link.href = s.url;
      link.target = "_blank";
      item.append(": ", link);
    }
    list.append(item);
  }
  links.append(list, el("p", "Send each person their seat's link: it is their key to the seat."));
}

fetch("/api/rulesets").then((r) => r.json()).then((data) => {
  offered = data;
  for (const r of data.rulesets) option($("ruleset"), r.name, r.title === r.name ? r.name : `${r.title} (${r.name})`);
  fill();
});
$("ruleset").addEventListener("change", fill);
$("players").addEventListener("change", seats);
$("new").addEventListener("submit", open);
