// The page's words in English and Italian. t(key) gives the word in the chosen language; elements with
// data-i18n (text), data-i18n-label (aria-label), data-i18n-title (title) and data-i18n-placeholder (placeholder)
// are filled by applyLanguage().

const STRINGS = {
  en: {
    title: "Tressette table",
    lang: "Italiano",
    langLabel: "Switch the page to Italian",
    lobby: "New table",
    game: "Game",
    rules: "Rule switches",
    players: "Players",
    seat: "Your seat",
    seed: "Seed",
    pace: "Bots' pace (ms)",
    reviewEach: "Review each hand",
    play: "Play",
    watch: "Watch bots",
    openRecord: "Open a record",
    confirmEach: "Confirm each action",
    confirm: "Confirm",
    undo: "Undo",
    hint: "Hint",
    legend: "Legend",
    lastTrick: "Last trick",
    log: "This hand",
    nextHand: "Next hand",
    leave: "Leave",
    you: "you",
    person: "a person (link)",
    playerN: "player {n}",
    seedNote: "Another person plays: the deal is secret (a random seed).",
    turnOf: "On turn: {name}",
    yourTurn: "Your turn",
    waiting: "Waiting for {name}",
    phase: "Phase",
    cardsTaken: "Cards taken",
    match: "Match score",
    handOver: "Hand over",
    matchOver: "Match over",
    review: "Review",
    reviewNone: "No review for this hand",
    reviewPending: "The review is being computed...",
    reviewSeat: "Seat",
    reviewPlayed: "Played",
    reviewValue: "Value",
    reviewBest: "Best",
    reviewLoss: "Loss",
    summary: "Summary",
    links: "Seats for other people: send a link",
    copy: "Copy",
    copied: "Copied",
    replay: "Record",
    first: "First",
    prev: "Previous",
    next: "Next",
    last: "Last",
    frame: "Step {i} of {n}",
    close: "Close",
    hintIs: "Hint: {name}",
    plain: "plain",
    busso: "busso",
    striscio: "striscio",
    volo: "volo",
    chooseSignal: "Play {card} with a signal?",
    selected: "Selected: {name}",
    disconnected: "The connection to the server is closed; reload the page.",
    reconnecting: "Connection lost, reconnecting…",
    recordOf: "Record {i} of {n}",
    recordN: "record {i}",
    chooseRecord: "Choose a record of the file",
    dealt: "Dealt",
    seedPlaceholder: "random",
    noCards: "no cards",
    dummy: "dummy",
    taker: "taken by {name}",
    legendSuits:
      "Suits: denari (coins), coppe (cups), spade (swords), bastoni (batons). Ranks, highest first: 3, 2, asso, " +
      "re, cavallo, fante, 7, 6, 5, 4. Points: asso 1, 2/3/re/cavallo/fante 1/3 each; the last trick 1.",
    legendSignals:
      "Signals on a lead: busso (knock: play your best of the suit), striscio (slide: more cards of the suit), " +
      "volo (fly: the last card of the suit).",
    legendPhases:
      "Phases: the auction (passo, chiamo, solo, solissimo), the call (chiama a card), the monte and the discards " +
      "(dà a card), the stock or the packets (volta a packet's card), then the play. A dummy's cards lie face up.",
    legendUse:
      "Click a card or a button to choose, then Confirm (or Undo). Keys: Tab to move, Enter to choose.",
    errorPrefix: "Error",
  },
  it: {
    title: "Tavolo di tressette",
    lang: "English",
    langLabel: "Passa la pagina all'inglese",
    lobby: "Nuovo tavolo",
    game: "Gioco",
    rules: "Regole",
    players: "Giocatori",
    seat: "Il tuo posto",
    seed: "Seme del mazzo",
    pace: "Ritmo dei bot (ms)",
    reviewEach: "Revisione di ogni mano",
    play: "Gioca",
    watch: "Guarda i bot",
    openRecord: "Apri una registrazione",
    confirmEach: "Conferma ogni mossa",
    confirm: "Conferma",
    undo: "Annulla",
    hint: "Suggerimento",
    legend: "Legenda",
    lastTrick: "Ultima presa",
    log: "Questa mano",
    nextHand: "Mano successiva",
    leave: "Esci",
    you: "tu",
    person: "una persona (link)",
    playerN: "giocatore {n}",
    seedNote: "Gioca un'altra persona: la smazzata è segreta (seme casuale).",
    turnOf: "Di turno: {name}",
    yourTurn: "Tocca a te",
    waiting: "Si aspetta {name}",
    phase: "Fase",
    cardsTaken: "Carte prese",
    match: "Punteggio della partita",
    handOver: "Mano finita",
    matchOver: "Partita finita",
    review: "Revisione",
    reviewNone: "Nessuna revisione per questa mano",
    reviewPending: "Revisione in calcolo...",
    reviewSeat: "Posto",
    reviewPlayed: "Giocata",
    reviewValue: "Valore",
    reviewBest: "Migliore",
    reviewLoss: "Perdita",
    summary: "Riepilogo",
    links: "Posti per altre persone: manda un link",
    copy: "Copia",
    copied: "Copiato",
    replay: "Registrazione",
    first: "Inizio",
    prev: "Indietro",
    next: "Avanti",
    last: "Fine",
    frame: "Passo {i} di {n}",
    close: "Chiudi",
    hintIs: "Suggerimento: {name}",
    plain: "semplice",
    busso: "busso",
    striscio: "striscio",
    volo: "volo",
    chooseSignal: "Giocare {card} con un segno?",
    selected: "Scelta: {name}",
    disconnected: "La connessione al server è chiusa; ricarica la pagina.",
    reconnecting: "Connessione persa, riconnessione in corso…",
    recordOf: "Registrazione {i} di {n}",
    recordN: "registrazione {i}",
    chooseRecord: "Scegli una registrazione del file",
    dealt: "Carte distribuite",
    seedPlaceholder: "casuale",
    noCards: "nessuna carta",
    dummy: "morto",
    taker: "presa da {name}",
    legendSuits:
      "Semi: denari, coppe, spade, bastoni. Ordine di presa: 3, 2, asso, re, cavallo, fante, 7, 6, 5, 4. " +
      "Punti: asso 1, 2/3/re/cavallo/fante 1/3 ciascuno; l'ultima presa 1.",
    legendSignals:
      "Segni sull'attacco: busso (gioca la più alta del seme), striscio (ho altre carte del seme), volo " +
      "(l'ultima carta del seme).",
    legendPhases:
      "Fasi: l'asta (passo, chiamo, solo, solissimo), la chiamata (chiama una carta), il monte e lo scarto (dà " +
      "una carta), il mazzo o i pacchetti (volta la carta di un pacchetto), poi il gioco. Le carte del morto " +
      "stanno scoperte.",
    legendUse: "Clicca una carta o un pulsante, poi Conferma (o Annulla). Tasti: Tab per muoversi, Invio per scegliere.",
    "phase:the auction": "l'asta",
    "phase:the call": "la chiamata",
    "phase:the discards": "lo scarto",
    "phase:the soloist returns a card": "il solista rende una carta",
    "phase:play with a stock": "gioco col mazzo",
    "phase:play with packets": "gioco coi pacchetti",
    "phase:turn packets up": "si voltano i pacchetti",
    "phase:play": "il gioco",
    "phase:the soloist takes from the monte": "il solista prende dal monte",
    "phase:the opponents discard (dividete)": "gli avversari scartano (dividete)",
    "phase:the opponents exchange with the monte (scegliete)": "gli avversari cambiano col monte (scegliete)",
    "phase:the dealer discards": "il mazziere scarta",
    "phase:the opening lead, the dummy face down": "l'attacco, il morto coperto",
    "phase:select packets": "si scelgono i pacchetti",
    errorPrefix: "Errore",
  },
};

let language = "en";

/** The language of the page at first: the saved choice, else the browser's. */
export function initialLanguage() {
  let saved = null;
  try {
    saved = localStorage.getItem("tressette-lang");
  } catch {
    saved = null;
  }
  if (saved === "it" || saved === "en") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("it") ? "it" : "en";
}

export function currentLanguage() {
  return language;
}

/** The word for key in the chosen language (else English, else the key), with {name} fields filled. */
export function t(key, fields = {}) {
  const text = STRINGS[language][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(fields[name] ?? ""));
}

/** A phase's name (the server's words, English) in the chosen language. */
export function phaseName(phase) {
  return STRINGS[language][`phase:${phase}`] ?? phase;
}

/** Chooses the language and fills every element marked with data-i18n*. */
export function applyLanguage(lang, root = document) {
  language = lang === "it" ? "it" : "en";
  try {
    localStorage.setItem("tressette-lang", language);
  } catch {
    // a page without storage keeps the choice for this visit only
  }
  document.documentElement.lang = language;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}
