// The cards of the 40-card Italian deck, drawn as SVG by this file (no image, no font is loaded).
//
// Card id = suit * 10 + (value - 1); suits 0 denari, 1 coppe, 2 spade, 3 bastoni; values 1 asso .. 7, 8 fante,
// 9 cavallo, 10 re (the engine's tressette_env/engine/cards.py). Codes: "Ad", "3c", "Fs", "Rb".

const NS = "http://www.w3.org/2000/svg";

export const SUITS = ["denari", "coppe", "spade", "bastoni"];
export const SUIT_CODES = ["d", "c", "s", "b"];
export const RANK_CODES = ["A", "2", "3", "4", "5", "6", "7", "F", "C", "R"];
export const RANK_NAMES = ["asso", "2", "3", "4", "5", "6", "7", "fante", "cavallo", "re"];
const SUIT_COLOURS = ["#b8860b", "#b3261e", "#1f4e8c", "#2e6b2e"];

/** The card id a code names ("3d" -> 2), or null. */
export function cardOfCode(code) {
  if (typeof code !== "string" || code.length !== 2) return null;
  const rank = RANK_CODES.indexOf(code[0].toUpperCase());
  const suit = SUIT_CODES.indexOf(code[1].toLowerCase());
  return rank < 0 || suit < 0 ? null : suit * 10 + rank;
}

/** The code of a card id (2 -> "3d"). */
export function codeOf(card) {
  return RANK_CODES[card % 10] + SUIT_CODES[Math.floor(card / 10)];
}

/** The Italian name of a card ("3 di denari"), as the engine names it. */
export function cardName(card) {
  return `${RANK_NAMES[card % 10]} di ${SUITS[Math.floor(card / 10)]}`;
}

/** One suit's mark as SVG markup, centred on (0, 0), about 20 units high. */
export function suitMark(suit) {
  const c = SUIT_COLOURS[suit];
  switch (suit) {
    case 0: // denari: a coin with a rim and a rosette
      return (
        `<circle r="9.5" fill="#f2c94c" stroke="${c}" stroke-width="1.6"/>` +
        `<circle r="6" fill="none" stroke="${c}" stroke-width="1"/>` +
        `<path d="M0 -4 L1.2 -1.2 L4 0 L1.2 1.2 L0 4 L-1.2 1.2 L-4 0 L-1.2 -1.2 Z" fill="${c}"/>`
      );
    case 1: // coppe: a chalice, bowl, stem and foot
      return (
        `<path d="M-8 -9 H8 C8 -1 4 2 0 2 C-4 2 -8 -1 -8 -9 Z" fill="${c}" stroke="#6d1410" stroke-width="0.8"/>` +
        `<rect x="-1.2" y="2" width="2.4" height="5" fill="#d9a03a"/>` +
        `<path d="M-6 10 C-4 7 4 7 6 10 Z" fill="${c}" stroke="#6d1410" stroke-width="0.8"/>` +
        `<ellipse cx="0" cy="-8.5" rx="7" ry="1.3" fill="#f3d27a"/>`
      );
    case 2: // spade: a sword point up, crossguard and hilt
      return (
        `<path d="M0 -11 L2.2 -7 V4 H-2.2 V-7 Z" fill="#c9d6e8" stroke="${c}" stroke-width="0.9"/>` +
        `<rect x="-6" y="4" width="12" height="2.2" rx="1" fill="${c}"/>` +
        `<rect x="-1.2" y="6.2" width="2.4" height="3.6" fill="#7a4b1e"/>` +
        `<circle cy="10.8" r="1.6" fill="${c}"/>`
      );
    default: // bastoni: a knotted club
      return (
        `<path d="M-2 10 L-3 -4 C-4 -9 -1 -11 1 -11 C4 -11 5 -8 4 -4 L2 10 Z" fill="#8b5a2b" stroke="${c}" ` +
        `stroke-width="1.1"/>` +
        `<circle cx="-3" cy="-2" r="1.3" fill="${c}"/><circle cx="3" cy="1" r="1.3" fill="${c}"/>` +
        `<circle cx="-2" cy="5" r="1.1" fill="${c}"/><path d="M-1 -9 L1 -6" stroke="#d9b48a" stroke-width="1"/>`
      );
  }
}

// Where the marks of the cards 1..7 lie, in a 100 x 150 card (x, y, scale).
const PIPS = {
  1: [[50, 75, 2.4]],
  2: [[50, 45, 1.3], [50, 105, 1.3]],
  3: [[50, 38, 1.2], [50, 75, 1.2], [50, 112, 1.2]],
  4: [[32, 48, 1.1], [68, 48, 1.1], [32, 102, 1.1], [68, 102, 1.1]],
  5: [[32, 45, 1.05], [68, 45, 1.05], [50, 75, 1.05], [32, 105, 1.05], [68, 105, 1.05]],
  6: [[32, 40, 1], [68, 40, 1], [32, 75, 1], [68, 75, 1], [32, 110, 1], [68, 110, 1]],
  7: [[32, 38, 0.95], [68, 38, 0.95], [50, 57, 0.95], [32, 78, 0.95], [68, 78, 0.95], [32, 112, 0.95], [68, 112, 0.95]],
};

function pips(suit, value) {
  return PIPS[value]
    .map(([x, y, s]) => `<g transform="translate(${x} ${y}) scale(${s})">${suitMark(suit)}</g>`)
    .join("");
}

// The figures: fante (a standing page with a cap), cavallo (a rider on a horse), re (a crowned king).
function figure(suit, value) {
  const c = SUIT_COLOURS[suit];
  const robe = ["#e9c46a", "#e76f51", "#5c8dd6", "#6aa84f"][suit];
  const face = `<circle cx="50" cy="46" r="9" fill="#f6d7b0" stroke="#5a3b1a" stroke-width="0.8"/>`;
  const held = `<g transform="translate(70 78) scale(0.8)">${suitMark(suit)}</g>`;
  if (value === 8) {
    return (
      `<path d="M40 40 Q50 28 60 40 Z" fill="${c}"/>` + face +
      `<path d="M36 118 L40 60 Q50 55 60 60 L64 118 Z" fill="${robe}" stroke="#5a3b1a" stroke-width="0.8"/>` +
      `<path d="M44 118 V128 M56 118 V128" stroke="#5a3b1a" stroke-width="3"/>` + held
    );
  }
  if (value === 9) {
    return (
      `<path d="M22 96 Q30 80 52 84 L72 82 Q80 70 86 76 L84 90 Q78 92 74 96 L74 118 H68 V102 H34 V118 H28 V102 Q20 100 22 96 Z" ` +
      `fill="#a0785a" stroke="#5a3b1a" stroke-width="0.8"/>` +
      `<circle cx="50" cy="44" r="8" fill="#f6d7b0" stroke="#5a3b1a" stroke-width="0.8"/>` +
      `<path d="M42 84 L44 54 Q50 50 56 54 L58 84 Z" fill="${robe}" stroke="#5a3b1a" stroke-width="0.8"/>` +
      `<path d="M43 36 L50 30 L57 36 Z" fill="${c}"/>` +
      `<g transform="translate(66 60) scale(0.65)">${suitMark(suit)}</g>`
    );
  }
  return (
    `<path d="M39 38 L39 28 L44 33 L50 25 L56 33 L61 28 L61 38 Z" fill="#f2c94c" stroke="#8a6d0b" stroke-width="0.8"/>` +
    face +
    `<path d="M32 122 L38 60 Q50 54 62 60 L68 122 Z" fill="${robe}" stroke="#5a3b1a" stroke-width="0.8"/>` +
    `<path d="M38 60 L50 122 L62 60" fill="none" stroke="#f2c94c" stroke-width="1.5"/>` + held
  );
}

/** The SVG markup of a card's face (100 x 150 view box). */
export function cardFaceMarkup(card) {
  const suit = Math.floor(card / 10);
  const value = (card % 10) + 1;
  const c = SUIT_COLOURS[suit];
  const rank = RANK_CODES[card % 10];
  const corner =
    `<text x="9" y="21" font-size="17" font-weight="bold" fill="${c}" font-family="sans-serif">${rank}</text>` +
    `<g transform="translate(15 33) scale(0.45)">${suitMark(suit)}</g>` +
    `<g transform="rotate(180 50 75)"><text x="9" y="21" font-size="17" font-weight="bold" fill="${c}" ` +
    `font-family="sans-serif">${rank}</text><g transform="translate(15 33) scale(0.45)">${suitMark(suit)}</g></g>`;
  const middle = value <= 7 ? pips(suit, value) : figure(suit, value);
  return (
    `<rect x="1.5" y="1.5" width="97" height="147" rx="9" fill="#fffdf6" stroke="#444" stroke-width="2"/>` +
    corner + middle
  );
}

let backs = 0;

/** The SVG markup of a card's back (each with its own clip path's id). */
export function cardBackMarkup() {
  backs += 1;
  const clip = `back-clip-${backs}`;
  let lines = "";
  for (let i = -150; i < 150; i += 12) {
    lines += `<path d="M${i} 0 L${i + 150} 150" stroke="#e8c9a0" stroke-width="1.5"/>`;
    lines += `<path d="M${i + 150} 0 L${i} 150" stroke="#e8c9a0" stroke-width="1.5"/>`;
  }
  return (
    `<rect x="1.5" y="1.5" width="97" height="147" rx="9" fill="#7b1f24" stroke="#444" stroke-width="2"/>` +
    `<clipPath id="${clip}"><rect x="8" y="8" width="84" height="134" rx="5"/></clipPath>` +
    `<g clip-path="url(#${clip})">${lines}</g>` +
    `<rect x="8" y="8" width="84" height="134" rx="5" fill="none" stroke="#f2c94c" stroke-width="2"/>`
  );
}

/** An <svg> element: the card's face (card id 0..39) or its back (card null). */
export function cardSvg(card, label) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 150");
  svg.setAttribute("class", "card-svg");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label ?? (card === null ? "card back" : cardName(card)));
  svg.innerHTML = card === null ? cardBackMarkup() : cardFaceMarkup(card);
  return svg;
}
