// Building the page. Everything the hub sends (names, messages, ids) becomes a text node,
// never markup: the console parses no HTML from strings anywhere.

import { api } from "./api.js";

// h("a", {href: "#/x", class: "c"}, "text", child, [more]) — a DOM element
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(name, value === true ? "" : value);
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

export const link = (hash, ...children) => h("a", { href: hash }, ...children);
export const enc = encodeURIComponent;

const pad = (n) => String(n).padStart(2, "0");
const zones = new Intl.DateTimeFormat(undefined, { timeZoneName: "short" });

// a moment's local date, clock and zone: "2026-12-05", "04:08:31", "UTC" (the zone's short
// name, as the browser's locale and its time zone give it)
export function day(t) {
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
}

export function clock(t) {
  return `${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}`;
}

export function zone(t) {
  return zones.formatToParts(t).find((part) => part.type === "timeZoneName")?.value ?? "";
}

export function parseTime(iso) {
  const t = iso ? new Date(iso) : null;
  return t && !Number.isNaN(t.getTime()) ? t : null;
}

// local date and time, with the zone: 2026-12-05 04:08:31 UTC
export function when(iso) {
  if (!iso) return "—";
  const t = parseTime(iso);
  return t ? `${day(t)} ${clock(t)} ${zone(t)}`.trim() : String(iso);
}

export function timeTag(iso) {
  return h("time", { datetime: iso || "", title: iso || "" }, when(iso));
}

// a state as a coloured label: online, open, working, valid, ok, …
export function pill(state, title = undefined) {
  const text = state ?? "—";
  return h("span", { class: `pill s-${String(text).replace(/[^a-z-]/gi, "")}`, title }, text);
}

// the readable part of data items: texts as they are, files by name, data as JSON
export function dataText(items) {
  return (items || [])
    .map((item) => {
      if (item.type === "text") return item.text;
      if (item.type === "file") return `[file ${item.name || item.uri || item.mimeType || ""}]`;
      if (item.type === "data") return JSON.stringify(item.data);
      return `[${item.type}]`;
    })
    .join("\n");
}

const names = new Map(); // agent id -> Promise of { name, deregisteredAt } (or null)

export function rememberName(id, name) {
  names.set(id, Promise.resolve({ name, deregisteredAt: null }));
}

// an agent's name (its id on hover) that links to the agents page searched by its id; an
// agent that deregistered keeps its name, marked as gone. Looked up once per id per page load
export function agentRef(id) {
  if (!id) return h("span", { class: "muted" }, "—");
  const el = h("a", { class: "agent", href: `#/agents?id=${enc(id)}`, title: id }, short(id));
  if (!names.has(id)) {
    names.set(
      id,
      api(`/v1/agents/${enc(id)}/name`).then(
        (found) => found,
        () => null,
      ),
    );
  }
  names.get(id).then((found) => {
    if (!found) return;
    el.textContent = found.name;
    if (found.deregisteredAt) {
      el.classList.add("deregistered");
      el.title = `${id}, deregistered ${when(found.deregisteredAt)}`;
    }
  });
  return el;
}

// who called through a bridge session: an agent (linked), or an operator's application by name
export function callerRef(caller) {
  if (!caller) return null;
  if (caller.kind === "agent") return agentRef(caller.id);
  return h("span", { class: "caller", title: caller.id }, `application ${caller.name || caller.id}`);
}

export function short(id) {
  const text = String(id ?? "");
  return text.length > 18 ? `${text.slice(0, 8)}…${text.slice(-6)}` : text;
}

// label: value pairs in a line that wraps; a pair whose value is null or undefined is left out
export function facts(pairs) {
  const shown = pairs.filter(([, value]) => value !== null && value !== undefined && value !== "");
  return h(
    "dl",
    { class: "facts" },
    shown.map(([label, value]) => h("div", {}, h("dt", {}, label), h("dd", {}, value))),
  );
}

// a link named by its name, its id below
export const named = (hash, name, id) => [link(hash, name), h("div", { class: "muted small" }, id)];

// a group's members: its active ones, and those its conclusion released (still readers)
export function memberCount(group) {
  const members = group.members || [];
  const active = group.memberCount ?? members.filter((m) => m.state === "active").length;
  const released = members.filter((m) => m.state === "released").length;
  if (!released) return h("span", { class: "members" }, String(active));
  return h(
    "span",
    { class: "members", title: "released: members when the group concluded" },
    `${active} active · ${released} released`,
  );
}

export const none = () => h("span", { class: "muted" }, "—");

export function chips(items, label, title = () => undefined) {
  if (!items?.length) return none();
  return items.map((item) => h("span", { class: "chip", title: title(item) }, label(item)));
}

// a table; its body is `grid.tBodies[0]`
export function table(headings, rows = [], className = "list") {
  return h(
    "table",
    { class: className },
    h("thead", {}, h("tr", {}, headings.map((title) => h("th", {}, title)))),
    h("tbody", {}, rows),
  );
}

export function section(title, ...children) {
  return h("section", { class: "card" }, h("h2", {}, title), ...children);
}

export function notice(text, kind = "info") {
  return h("p", { class: `notice ${kind}` }, text);
}

// a list that grows by pages: a "More" button while the hub has a next page.
// `pages` is api.pager(); `row(item)` answers a <tr>.
export function pagedRows(tbody, pages, row, onError) {
  const more = h("button", { type: "button", class: "more" }, "More");
  const holder = h("div", { class: "more-holder" }, more);
  const load = async () => {
    more.disabled = true;
    try {
      const items = await pages.next();
      append(tbody, items.map(row));
      if (!tbody.children.length) {
        const columns = tbody.parentElement.querySelectorAll("th").length;
        tbody.append(h("tr", {}, h("td", { colspan: columns, class: "muted" }, "None.")));
      }
    } catch (error) {
      onError(error);
    }
    more.disabled = false;
    holder.hidden = pages.done;
  };
  more.addEventListener("click", load);
  holder.hidden = true;
  return { holder, load };
}

// a table that grows by pages: {nodes: [table, its More button], load()}
export function pagedTable(headings, pages, row, onError) {
  const grid = table(headings);
  const { holder, load } = pagedRows(grid.tBodies[0], pages, row, onError);
  return { nodes: [grid, holder], load };
}
