// The web table's client: the lobby, the websocket to the server (messages "tressette-web/1"), the drawing of the
// table, the selection of an action (select, then confirm or undo), the end-of-hand panel and the record viewer.
// The server holds the game; this page only shows what it is sent and sends the action chosen.

import { cardName, cardOfCode, cardSvg, codeOf } from "./cards.js";
import { applyLanguage, currentLanguage, initialLanguage, phaseName, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const CARD_ACTION = /^([A2-7FCR][dcsb])(?: (busso|striscio|volo))?$/;
const MAX_RECORD_BYTES = 2 * 1024 * 1024;

const page = {
  ws: null,
  open: false,
  queue: [],
  catalog: null,
  joined: null, // the last "joined" message
  view: null, // the last "view" message
  frames: null, // the record's frames, in replay mode
  frame: 0,
  selected: null, // {id, name} chosen, not yet sent
  variantsOf: null, // the card whose signal variants are shown
  hint: null,
  lastTrickShown: false,
  record: null, // {index, records}: the record shown and how many the file holds
  recordText: null, // the record file's text, kept to ask for another of its records
  retries: 0, // reconnection attempts since the connection was lost
};

const RETRIES = 5;
const RETRY_MS = 1000;

// ---------------------------------------------------------------- the connection

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  page.ws = ws;
  ws.addEventListener("open", () => {
    page.open = true;
    if (page.retries > 0) rejoin(); // back after a lost connection: the seat is taken again by its own link
    for (const message of page.queue.splice(0)) ws.send(JSON.stringify(message));
  });
  ws.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      showError(`not JSON: ${String(event.data).slice(0, 80)}`);
      return;
    }
    receive(message);
  });
  ws.addEventListener("close", () => {
    if (page.ws !== ws) return;
    page.open = false;
    if (page.joined?.own_link && !page.frames && page.retries < RETRIES) {
      page.retries += 1;
      $("reconnect-banner").hidden = false;
      setTimeout(connect, RETRY_MS);
      return;
    }
    $("reconnect-banner").hidden = true;
    showError(t("disconnected"));
    setState("closed");
  });
}

/** After a reconnection: join again by the seat's own link (its table and token). */
function rejoin() {
  const params = new URL(page.joined.own_link, location.href).searchParams;
  page.ws.send(JSON.stringify({ type: "join", table: params.get("table"), token: params.get("token") }));
}

function send(message) {
  if (page.open) page.ws.send(JSON.stringify(message));
  else page.queue.push(message);
}

function receive(message) {
  switch (message.type) {
    case "catalog":
      page.catalog = message;
      renderLobby();
      break;
    case "joined":
      page.joined = message;
      page.frames = null;
      page.recordText = null;
      page.retries = 0;
      $("reconnect-banner").hidden = true;
      // the address bar holds the seat's own link: a reload takes the seat back
      if (typeof message.own_link === "string" && message.own_link.startsWith("/?")) {
        history.replaceState(null, "", message.own_link);
      }
      if (Number.isInteger(message.pace_ms)) $("table-pace").value = String(message.pace_ms);
      page.view = null;
      clearSelection();
      showTable();
      renderLinks();
      break;
    case "view":
      if (page.frames) break; // a view of a table left for the record viewer
      page.view = message;
      page.hint = null;
      clearSelection();
      renderView(message, false);
      break;
    case "review": {
      // a finished hand's review, computed after its view was sent (the view said "pending")
      const end = page.view?.end;
      if (!page.frames && end && page.view.table === message.table && end.hand_number === message.hand_number) {
        end.review = message.review;
        renderEnd(page.view, false);
      }
      break;
    }
    case "hint":
      page.hint = message;
      renderHint();
      break;
    case "replay":
      page.frames = Array.isArray(message.frames) ? message.frames : [];
      page.frame = 0; // "index" is the record's number in the file, not a frame
      page.record = { index: Number(message.index) || 0, records: Number(message.records) || 1 };
      page.joined = null;
      showTable();
      renderLinks();
      renderRecordChoice();
      renderFrame();
      break;
    case "error":
      $("reconnect-banner").hidden = true;
      showError(message.message ?? "error");
      if ($("app").dataset.state === "pending" && page.view) renderView(page.view, false);
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------- errors and page state

function showError(text) {
  $("error-text").textContent = `${t("errorPrefix")}: ${text}`;
  $("error-banner").hidden = false;
}

function hideError() {
  $("error-banner").hidden = true;
}

function setState(state) {
  $("app").dataset.state = state;
}

// ---------------------------------------------------------------- the lobby

function currentGame() {
  const games = page.catalog?.games ?? [];
  return games.find((g) => g.name === $("game-select").value) ?? games[0];
}

function renderLobby() {
  const select = $("game-select");
  const chosen = select.value;
  select.replaceChildren();
  for (const game of page.catalog.games) {
    const option = new Option(game.title ?? game.name, game.name);
    select.append(option);
  }
  if (chosen) select.value = chosen;
  renderSwitches();
}

function switchId(name) {
  return `switch-${name}`;
}

function renderSwitches() {
  const game = currentGame();
  const box = $("switches");
  box.querySelectorAll(".field").forEach((el) => el.remove());
  for (const sw of game?.switches ?? []) {
    const field = document.createElement("div");
    field.className = "field";
    const label = document.createElement("label");
    label.textContent = sw.name.replaceAll("_", " ");
    if (sw.meaning) label.title = sw.meaning;
    label.htmlFor = switchId(sw.name);
    let input;
    if (sw.kind === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = Boolean(sw.default);
      field.classList.add("check");
    } else if (Array.isArray(sw.choices)) {
      input = document.createElement("select");
      for (const choice of sw.choices) input.append(new Option(String(choice), JSON.stringify(choice)));
      input.value = JSON.stringify(sw.default);
    } else {
      input = document.createElement("input");
      input.type = sw.kind === "int" ? "number" : "text";
      if (sw.kind === "int") {  // the switch's bounds (the spinner keeps to them; the server refuses a value past them)
        input.min = String(sw.least);
        input.max = String(sw.most);
        input.step = "1";
      }
      input.value = sw.default ?? "";
    }
    input.id = switchId(sw.name);
    input.dataset.testid = switchId(sw.name);
    input.dataset.switch = sw.name;
    input.addEventListener("change", () => {
      if (sw.name === "players") renderPlayers();
    });
    field.append(label, input);
    box.append(field);
  }
  renderPlayers();
}

function readRules() {
  const rules = {};
  for (const sw of currentGame()?.switches ?? []) {
    const input = $(switchId(sw.name));
    if (!input) continue;
    let value;
    if (sw.kind === "bool") value = input.checked;
    else if (Array.isArray(sw.choices)) value = JSON.parse(input.value);
    else if (sw.kind === "int") value = input.value === "" ? sw.default : Number(input.value);
    else value = input.value;
    if (JSON.stringify(value) !== JSON.stringify(sw.default)) rules[sw.name] = value;
  }
  return rules;
}

function agentCount() {
  const game = currentGame();
  const players = $(switchId("players"));
  if (players && game?.switches?.some((sw) => sw.name === "players")) {
    const value = JSON.parse(players.tagName === "SELECT" ? players.value : players.value || "0");
    if (Number.isInteger(value) && value > 0) return value;
  }
  return game?.agents ?? 2;
}

function renderPlayers() {
  const n = agentCount();
  const seatSelect = $("your-seat");
  const yours = Math.min(Number(seatSelect.value) || 0, n - 1);
  const previous = {};
  for (const el of document.querySelectorAll("[data-agent-player]")) previous[el.dataset.agentPlayer] = el.value;
  seatSelect.replaceChildren();
  for (let a = 0; a < n; a++) seatSelect.append(new Option(t("playerN", { n: a }), String(a)));
  seatSelect.value = String(yours);
  const box = $("players");
  box.querySelectorAll(".field").forEach((el) => el.remove());
  const game = currentGame();
  // the catalog's players as they are (the built-in ones, then the server's models); ppo for a game with a model
  const kinds = (page.catalog?.players ?? ["random", "heuristic", "search"]).filter(
    (kind) => kind !== "ppo" || game?.model === true,
  );
  for (let a = 0; a < n; a++) {
    const field = document.createElement("div");
    field.className = "field player";
    const label = document.createElement("label");
    label.htmlFor = `seat-player-${a}`;
    label.textContent = t("playerN", { n: a });
    const select = document.createElement("select");
    select.id = `seat-player-${a}`;
    select.dataset.testid = `seat-player-${a}`;
    select.dataset.agentPlayer = String(a);
    for (const kind of kinds) select.append(new Option(kind, kind));
    select.append(new Option(t("person"), "person"));
    if (a === yours) {
      select.append(new Option(t("you"), "you"));
      select.value = "you";
      select.disabled = true;
    } else {
      const before = previous[String(a)];
      const offered = before === "person" || kinds.includes(before);
      select.value = offered ? before : kinds.includes("heuristic") ? "heuristic" : kinds[0];
    }
    select.addEventListener("change", renderSeed);
    field.append(label, select);
    box.append(field);
  }
  renderSeed();
}

/** A table with another person's seat is dealt from a secret seed: the seed field is disabled, with the reason. */
function renderSeed() {
  const persons = [...document.querySelectorAll("[data-agent-player]")].some((el) => el.value === "person");
  $("seed").disabled = persons;
  $("seed-note").hidden = !persons;
}

function readPlayers(watching) {
  const n = agentCount();
  const players = [];
  for (let a = 0; a < n; a++) {
    const value = $(`seat-player-${a}`).value;
    if (value === "you") players.push(watching ? "heuristic" : "person");
    else if (value === "person" && watching) players.push("heuristic");
    else players.push(value);
  }
  return players;
}

function pace() {
  const ms = Number($("pace").value);
  return Number.isFinite(ms) ? Math.min(5000, Math.max(0, Math.round(ms))) : 600;
}

function startTable(watching) {
  hideError();
  const game = currentGame();
  if (!game) return;
  const message = {
    type: watching ? "watch" : "create",
    game: game.name,
    rules: readRules(),
    players: readPlayers(watching),
    pace_ms: pace(),
    review: $("review-each").checked,
  };
  // an empty seed means a random deal; a table of several persons is dealt from a secret seed (no "seed")
  const seed = $("seed").value.trim();
  if (seed !== "" && (watching || !$("seed").disabled)) message.seed = Math.max(0, Math.floor(Number(seed) || 0));
  if (!watching) message.seat = Number($("your-seat").value) || 0;
  send(message);
}

function openRecord(file) {
  hideError();
  if (!file) return;
  if (file.size > MAX_RECORD_BYTES) {
    showError(`${file.name}: ${file.size} bytes, at most ${MAX_RECORD_BYTES}`);
    return;
  }
  file.text().then(
    (text) => {
      page.recordText = text;
      send({ type: "record", text, index: 0 });
    },
    () => showError(`${file.name}: not readable`),
  );
}

// ---------------------------------------------------------------- the table

function showTable() {
  $("lobby").hidden = true;
  $("table").hidden = false;
  $("replay-bar").hidden = !page.frames;
  $("end-panel").hidden = true;
  for (const id of ["hint", "table-pace"]) $(id).closest(".tools > *").hidden = Boolean(page.frames);
}

function showLobby() {
  page.joined = null;
  page.view = null;
  page.frames = null;
  clearSelection();
  $("table").hidden = true;
  $("lobby").hidden = false;
  setState("lobby");
}

function renderLinks() {
  const links = page.joined?.links ?? {};
  const list = $("link-list");
  list.replaceChildren();
  const agents = Object.keys(links);
  $("links").hidden = agents.length === 0;
  for (const agent of agents) {
    const item = document.createElement("li");
    const input = document.createElement("input");
    input.type = "text";
    input.readOnly = true;
    input.value = new URL(links[agent], location.href).href;
    input.dataset.testid = `link-${agent}`;
    input.id = `link-${agent}`;
    input.setAttribute("aria-label", `${page.joined.names?.[agent] ?? agent}`);
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = t("copy");
    copy.dataset.testid = `copy-link-${agent}`;
    copy.addEventListener("click", () => {
      input.select();
      const done = () => (copy.textContent = t("copied"));
      if (navigator.clipboard) navigator.clipboard.writeText(input.value).then(done, () => document.execCommand?.("copy"));
      else document.execCommand?.("copy");
    });
    const label = document.createElement("span");
    label.textContent = `${page.joined.names?.[agent] ?? `player ${Number(agent) + 1}`}: `;
    item.append(label, input, copy);
    list.append(item);
  }
}

function points(thirds) {
  const whole = Math.floor(thirds / 3);
  const rest = thirds % 3;
  return rest ? `${whole ? `${whole} ` : ""}${rest}/3` : String(whole);
}

function seatName(view, seat) {
  return view.seat_names?.[seat] ?? `${seat + 1}`;
}

function cardElement(card, options = {}) {
  const el = document.createElement(options.button ? "button" : "div");
  el.className = `card${options.small ? " small" : ""}`;
  if (options.button) el.type = "button";
  const label = card === null ? t("noCards") : cardName(card);
  el.append(cardSvg(card, label));
  if (options.button) el.setAttribute("aria-label", label);
  return el;
}

/** The legal actions split: by card (playing a card, with its signal variants, or giving it) and the rest. */
function classify(legal) {
  const byCard = new Map();
  const buttons = [];
  for (const action of legal) {
    const match = CARD_ACTION.exec(action.name);
    if (match) {
      const card = cardOfCode(match[1]);
      if (!byCard.has(card)) byCard.set(card, []);
      byCard.get(card).push({ ...action, signal: match[2] ?? "" });
      continue;
    }
    buttons.push(action);
  }
  return { byCard, buttons };
}

function renderView(view, readOnly) {
  const act = view.act ?? {};
  const playing = view.status === "playing";
  const mine = !readOnly && Boolean(view.your_turn) && playing;
  setState(readOnly ? "replay" : !playing ? "end" : mine ? "turn" : "waiting");
  $("app").dataset.seq = String((Number($("app").dataset.seq) || 0) + 1);
  if (!readOnly && Number.isInteger(view.deal)) $("app").dataset.deal = String(view.deal);
  const legal = mine ? act.legal ?? [] : [];
  const { byCard, buttons } = classify(legal);
  // a discard ("dà 5d") may also be chosen by clicking the card in the hand
  for (const action of buttons) {
    const words = action.name.split(" ");
    const card = words.length === 2 && words[0] === "dà" ? cardOfCode(words[1]) : null;
    if (card !== null && (act.hand ?? []).includes(card) && !byCard.has(card)) byCard.set(card, [{ ...action, signal: "" }]);
  }
  renderStatus(view, act);
  renderFelt(view, act);
  renderHands(view, act, byCard, mine);
  renderButtons(buttons, mine);
  renderLog(view);
  renderLastTrick(view);
  renderEnd(view, readOnly);
  renderHint();
  $("hint").disabled = !mine;
}

function renderStatus(view, act) {
  $("phase").textContent = act.phase ? `${t("phase")}: ${phaseName(act.phase)}` : "";
  let turn = "";
  if (view.status === "playing" && act.turn !== undefined && act.turn !== null) {
    turn = view.your_turn ? t("yourTurn") : t("turnOf", { name: seatName(view, act.turn) });
  } else if (view.status === "hand_over") turn = t("handOver");
  else if (view.status === "match_over") turn = t("matchOver");
  $("turn").textContent = turn;
  $("turn").classList.toggle("mine", Boolean(view.your_turn));
  const thirds = act.thirds ?? [];
  const names = view.names ?? page.joined?.names ?? [];
  const scores = act.match_score ?? [];
  // one score per competitor: named by its player when each player competes alone, else in order
  const match =
    scores.length === names.length ? scores.map((s, i) => `${names[i]} ${s}`).join(" · ") : scores.join(" – ");
  $("score").textContent =
    `${t("cardsTaken")}: ${thirds.map(points).join(" – ")}` + (match ? ` | ${t("match")}: ${match}` : "");
}

function seatPosition(k, n) {
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
  return { x: 50 + 40 * Math.cos(angle), y: 50 + 38 * Math.sin(angle), angle };
}

function renderFelt(view, act) {
  const felt = $("felt");
  felt.replaceChildren();
  const n = view.seat_names?.length ?? 4;
  const bottom = view.seat ?? 0; // a spectator (and a record) sees seat 0 at the bottom
  const faceUp = act.face_up ?? {};
  const hands = view.hands ?? null;
  for (let seat = 0; seat < n; seat++) {
    const k = (seat - bottom + n) % n;
    const pos = seatPosition(k, n);
    const box = document.createElement("div");
    box.className = "seat";
    box.dataset.testid = `seat-${seat}`;
    if (view.status === "playing" && act.turn === seat) box.classList.add("on-turn");
    // seats at the sides keep to the felt's edge; the others are centred on their place
    box.classList.add(pos.x < 25 ? "at-left" : pos.x > 75 ? "at-right" : "at-middle");
    if (pos.x >= 25 && pos.x <= 75) box.style.left = `${pos.x}%`;
    box.style.top = `${pos.y}%`;
    const name = document.createElement("div");
    name.className = "seat-name";
    name.textContent = seatName(view, seat);
    box.append(name);
    const declared = (act.declarations ?? [])[seat] ?? [];
    if (declared.length) {
      const list = document.createElement("div");
      list.className = "declarations";
      list.dataset.testid = `declarations-${seat}`;
      list.textContent = declared
        .map((d) => `${d.kind} ${(d.cards ?? []).map(codeOf).join(" ")} (${d.points})`)
        .join(" · ");
      box.append(list);
    }
    const shown = hands ? hands[seat] ?? hands[String(seat)] : faceUp[String(seat)];
    if (!shown && seat !== bottom) {
      const back = cardElement(null, { small: true }); // a hidden hand
      back.setAttribute("aria-hidden", "true");
      back.classList.add("hidden-hand");
      box.append(back);
    }
    if (shown && (hands || seat !== bottom)) {
      const row = document.createElement("div");
      row.className = "seat-cards";
      for (const card of shown) row.append(cardElement(card, { small: true }));
      box.append(row);
      if (!hands) box.classList.add("dummy");
    }
    felt.append(box);
  }
  const trick = document.createElement("div");
  trick.className = "trick";
  trick.dataset.testid = "trick";
  // the trick on the table; when it is empty, the last trick taken, faded
  let plays = act.trick ?? [];
  const last = view.last_trick;
  const previous = plays.length === 0 && last && (last.cards ?? []).length > 0;
  if (previous) plays = last.cards.map((card, i) => ({ seat: (last.leader + i) % n, card }));
  trick.classList.toggle("previous", Boolean(previous));
  trick.classList.toggle("open-hands", Boolean(hands));
  for (const play of plays) {
    const k = (play.seat - bottom + n) % n;
    const pos = seatPosition(k, n);
    const el = cardElement(play.card);
    el.classList.add("trick-card");
    el.style.left = `${50 + (hands ? 13 : 20) * Math.cos(pos.angle)}%`;
    el.style.top = `${50 + (hands ? 16 : 18) * Math.sin(pos.angle)}%`;
    el.title = `${seatName(view, play.seat)}: ${cardName(play.card)}`;
    el.setAttribute("aria-label", el.title);
    trick.append(el);
  }
  if (act.lead_signal) {
    const sign = document.createElement("div");
    sign.className = "lead-signal";
    sign.textContent = t(act.lead_signal);
    trick.append(sign);
  }
  felt.append(trick);
}

function renderHands(view, act, byCard, mine) {
  const hand = $("hand");
  hand.replaceChildren();
  const ownSeat = view.seat;
  const playingDummy = Array.isArray(act.own) && act.seat !== ownSeat;
  const spectator = view.you === null || view.you === undefined;
  $("hand-label").textContent = playingDummy
    ? `${t("dummy")}: ${seatName(view, act.seat)}`
    : spectator
      ? ""
      : seatName(view, ownSeat ?? act.seat ?? 0);
  hand.setAttribute("aria-label", $("hand-label").textContent || "hand");
  const cards = spectator ? [] : act.hand ?? [];
  for (const card of cards) {
    const actions = byCard.get(card) ?? [];
    const el = cardElement(card, { button: true });
    el.dataset.testid = `card-${card}`;
    el.dataset.card = String(card);
    if (actions.length) {
      el.dataset.legal = "1";
      el.dataset.actionIds = actions.map((a) => a.id).join(" ");
      el.addEventListener("click", () => chooseCard(card, actions));
    } else {
      el.disabled = true;
      el.classList.add("unplayable");
    }
    if (page.selected && actions.some((a) => a.id === page.selected.id)) el.classList.add("selected");
    hand.append(el);
  }
  hand.hidden = cards.length === 0;
  const own = $("own-hand");
  own.replaceChildren();
  own.hidden = !playingDummy;
  $("own-label").hidden = !playingDummy;
  if (playingDummy) {
    $("own-label").textContent = seatName(view, ownSeat);
    for (const card of act.own) own.append(cardElement(card, { small: true }));
  }
  if (!mine) {
    $("variants").hidden = true;
    page.variantsOf = null;
  }
}

function actionButton(action, label) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "action";
  button.dataset.testid = `action-${action.id}`;
  button.dataset.legal = "1";
  button.dataset.actionIds = String(action.id);
  button.setAttribute("aria-label", action.name);
  const words = action.name.split(" ");
  const card = words.length === 2 ? cardOfCode(words[1]) : null;
  const text = document.createElement("span");
  text.textContent = label ?? action.name;
  button.append(text);
  if (card !== null) {
    const mini = cardElement(card, { small: true });
    mini.classList.add("mini");
    button.append(mini);
  }
  if (page.selected?.id === action.id) button.classList.add("selected");
  button.addEventListener("click", () => select(action));
  return button;
}

function renderButtons(buttons, mine) {
  const box = $("buttons");
  box.replaceChildren();
  if (!mine) return;
  for (const action of buttons) box.append(actionButton(action));
}

function chooseCard(card, actions) {
  if (actions.length === 1) {
    $("variants").hidden = true;
    page.variantsOf = null;
    select(actions[0]);
    return;
  }
  page.variantsOf = card;
  const box = $("variants");
  box.replaceChildren();
  const question = document.createElement("span");
  question.textContent = t("chooseSignal", { card: cardName(card) });
  box.append(question);
  for (const action of actions) box.append(actionButton(action, t(action.signal || "plain")));
  box.hidden = false;
  box.querySelector("button")?.focus();
}

function select(action) {
  hideError();
  if (!$("confirm-each").checked) {
    sendAction(action);
    return;
  }
  page.selected = action;
  $("selected-text").textContent = t("selected", { name: action.name });
  $("selection").hidden = false;
  for (const el of document.querySelectorAll(".selected")) el.classList.remove("selected");
  for (const el of document.querySelectorAll("[data-action-ids]")) {
    if (el.dataset.actionIds.split(" ").includes(String(action.id))) el.classList.add("selected");
  }
  $("confirm").focus();
}

function clearSelection() {
  page.selected = null;
  page.variantsOf = null;
  $("selection").hidden = true;
  $("variants").hidden = true;
  for (const el of document.querySelectorAll(".selected")) el.classList.remove("selected");
}

function sendAction(action) {
  clearSelection();
  setState("pending");
  for (const el of document.querySelectorAll("[data-legal]")) el.disabled = true;
  send({ type: "act", action: action.id });
}

function renderHint() {
  const box = $("hint-text");
  for (const el of document.querySelectorAll(".hinted")) el.classList.remove("hinted");
  if (!page.hint || !page.view?.your_turn) {
    box.hidden = true;
    return;
  }
  box.textContent = t("hintIs", { name: page.hint.name });
  box.hidden = false;
  for (const el of document.querySelectorAll("[data-action-ids]")) {
    if (el.dataset.actionIds.split(" ").includes(String(page.hint.id))) el.classList.add("hinted");
  }
}

function renderLog(view) {
  const log = $("log");
  log.replaceChildren();
  for (const entry of view.log ?? []) {
    const item = document.createElement("li");
    const seat = entry.seat === null || entry.seat === undefined ? "" : `${seatName(view, entry.seat)}: `;
    item.textContent = `${seat}${entry.text}`;
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

function renderLastTrick(view) {
  const box = $("last-trick");
  const last = view.last_trick;
  box.replaceChildren();
  $("last-trick-toggle").disabled = !last;
  box.hidden = !(page.lastTrickShown && last);
  if (!last) return;
  const row = document.createElement("div");
  row.className = "seat-cards";
  (last.cards ?? []).forEach((card, i) => {
    const n = view.seat_names?.length ?? 4;
    const el = cardElement(card, { small: true });
    el.title = `${seatName(view, (last.leader + i) % n)}: ${cardName(card)}`;
    row.append(el);
  });
  const taker = document.createElement("p");
  taker.textContent = t("taker", { name: seatName(view, last.taker) });
  box.append(row, taker);
}

function renderEnd(view, readOnly) {
  const panel = $("end-panel");
  const end = view.end;
  if (view.status === "playing" || !end) {
    panel.hidden = true;
    return;
  }
  const wasHidden = panel.hidden;
  panel.hidden = false;
  if (wasHidden && !readOnly) panel.scrollIntoView({ block: "nearest" });
  $("end-title").textContent = view.status === "match_over" ? t("matchOver") : t("handOver");
  const summary = $("summary");
  summary.replaceChildren();
  for (const line of end.summary ?? []) {
    const item = document.createElement("li");
    item.textContent = line;
    summary.append(item);
  }
  const review = end.review ?? { kind: "none", reason: "", plays: [] };
  $("review-reason").textContent =
    review.kind === "none"
      ? `${t("reviewNone")}: ${review.reason ?? ""}`
      : review.kind === "pending"
        ? t("reviewPending")
        : review.reason ?? "";
  const table = $("review");
  table.replaceChildren();
  if ((review.plays ?? []).length) {
    const head = table.createTHead().insertRow();
    for (const key of ["reviewSeat", "reviewPlayed", "reviewValue", "reviewBest", "reviewLoss"]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = t(key);
      head.append(th);
    }
    const body = table.createTBody();
    for (const play of review.plays) {
      const row = body.insertRow();
      if (play.marked) {
        row.classList.add("marked");
        row.dataset.testid = "review-marked";
      }
      const cells = [
        seatName(view, play.seat),
        play.name,
        play.value === null || play.value === undefined ? "" : points(play.value),
        play.best_name ?? "",
        play.loss === null || play.loss === undefined ? "" : points(play.loss),
      ];
      for (const text of cells) row.insertCell().textContent = String(text);
    }
  }
  $("next-hand").hidden = readOnly;
}

// ---------------------------------------------------------------- the record viewer

/** "Record i of n", and a choice of the file's records when it holds more than one. */
function renderRecordChoice() {
  const { index, records } = page.record ?? { index: 0, records: 1 };
  const label = $("replay-record-label");
  label.textContent = t("recordOf", { i: index + 1, n: records });
  label.dataset.index = String(index);
  const select = $("replay-record");
  select.replaceChildren();
  select.hidden = records <= 1;
  for (let i = 0; i < records; i++) select.append(new Option(t("recordN", { i: i + 1 }), String(i)));
  select.value = String(index);
}

function renderFrame() {
  const frames = page.frames ?? [];
  const n = frames.length;
  $("replay-index").textContent = n ? t("frame", { i: page.frame + 1, n }) : t("frame", { i: 0, n: 0 });
  $("replay-index").dataset.index = String(page.frame);
  $("replay-first").disabled = $("replay-prev").disabled = page.frame <= 0;
  $("replay-last").disabled = $("replay-next").disabled = page.frame >= n - 1;
  const step = n ? frames[page.frame].step : null;
  const stepBox = $("replay-step");
  stepBox.dataset.step = step?.name ?? "";
  stepBox.textContent = !step
    ? ""
    : step.name === "dealt"
      ? t("dealt")
      : `${step.seat === null || step.seat === undefined ? "" : `${seatName(frames[page.frame], step.seat)}: `}${step.name}`;
  if (n) renderView(frames[page.frame], true);
}

function stepFrame(to) {
  if (!page.frames) return;
  page.frame = Math.min(Math.max(0, to), Math.max(0, page.frames.length - 1));
  renderFrame();
}

// ---------------------------------------------------------------- the legend

function renderLegend() {
  const box = $("legend-cards");
  box.replaceChildren();
  for (const card of [0, 12, 27, 38, 39]) box.append(cardElement(card, { small: true }));
  box.append(cardElement(null, { small: true }));
}

// ---------------------------------------------------------------- wiring

function rerender() {
  applyLanguage(currentLanguage());
  if (page.catalog) renderPlayers();
  if (page.frames) {
    renderRecordChoice();
    renderFrame();
  } else if (page.view) renderView(page.view, false);
  renderLinks();
}

function wire() {
  $("game-select").addEventListener("change", renderSwitches);
  $("confirm-each").addEventListener("change", () => {
    store("tressette-confirm", $("confirm-each").checked ? "on" : "off");
    if (!$("confirm-each").checked) clearSelection();
  });
  $("your-seat").addEventListener("change", renderPlayers);
  $("play").addEventListener("click", () => startTable(false));
  $("watch").addEventListener("click", () => startTable(true));
  $("record-file").addEventListener("change", (event) => {
    openRecord(event.target.files?.[0]);
    event.target.value = "";
  });
  $("confirm").addEventListener("click", () => page.selected && sendAction(page.selected));
  $("undo").addEventListener("click", () => {
    clearSelection();
    document.querySelector("#hand [data-legal]")?.focus();
  });
  $("hint").addEventListener("click", () => send({ type: "hint" }));
  $("next-hand").addEventListener("click", () => {
    if (!page.view || page.view.status === "playing") return; // the next hand is already dealt
    hideError();
    $("end-panel").hidden = true;
    setState("pending");
    // the deal of the hand just finished: when another person has already dealt the next one, nothing happens
    send({ type: "next", deal: page.view?.deal });
  });
  $("leave").addEventListener("click", () => {
    if (!page.frames) send({ type: "leave" });
    page.recordText = null;
    if (location.search) history.replaceState(null, "", "/");
    showLobby();
  });
  $("table-pace").addEventListener("change", () => {
    const ms = Math.min(5000, Math.max(0, Math.round(Number($("table-pace").value) || 0)));
    send({ type: "pace", ms });
  });
  $("last-trick-toggle").addEventListener("click", () => {
    page.lastTrickShown = !page.lastTrickShown;
    $("last-trick-toggle").setAttribute("aria-expanded", String(page.lastTrickShown));
    const view = page.frames ? page.frames[page.frame] : page.view;
    if (view) renderLastTrick(view);
  });
  $("legend-toggle").addEventListener("click", () => {
    const legend = $("legend");
    legend.hidden = !legend.hidden;
    $("legend-toggle").setAttribute("aria-expanded", String(!legend.hidden));
  });
  $("lang-toggle").addEventListener("click", () => {
    applyLanguage(currentLanguage() === "it" ? "en" : "it");
    rerender();
  });
  $("error-close").addEventListener("click", hideError);
  $("replay-first").addEventListener("click", () => stepFrame(0));
  $("replay-prev").addEventListener("click", () => stepFrame(page.frame - 1));
  $("replay-next").addEventListener("click", () => stepFrame(page.frame + 1));
  $("replay-last").addEventListener("click", () => stepFrame(Infinity));
  $("replay-record").addEventListener("change", () => {
    if (page.recordText === null) return;
    hideError();
    send({ type: "record", text: page.recordText, index: Number($("replay-record").value) || 0 });
  });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.key === "Escape" && page.selected) clearSelection();
    if (page.frames && event.key === "ArrowRight") stepFrame(page.frame + 1);
    if (page.frames && event.key === "ArrowLeft") stepFrame(page.frame - 1);
  });
}

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // a page without storage keeps the setting for this visit only
  }
}

function start() {
  applyLanguage(initialLanguage());
  $("confirm-each").checked = stored("tressette-confirm") !== "off";
  renderLegend();
  wire();
  $("seed").value = ""; // empty: a random deal
  connect();
  send({ type: "catalog" });
  const params = new URLSearchParams(location.search);
  if (params.get("table") && params.get("token")) {
    send({ type: "join", table: params.get("table"), token: params.get("token") });
  }
}

start();
