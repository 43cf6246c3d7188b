// Cards, cells and sides as the server names them ("7h", "d5", seat letters) and their short labels.

const RANKS = "23456789tjqka", SUITS = "shdc";
export const SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };
export const LETTER = ["B", "G", "R"];
export const cardId = (name) => RANKS.indexOf(name[0]) * 4 + SUITS.indexOf(name[1]);
export const rankLabel = (name) => (name[0] === "t" ? "10" : name[0].toUpperCase());
export const cardLabel = (name) => rankLabel(name) + SYMBOL[name[1]];
export const isRed = (name) => name[1] === "h" || name[1] === "d";
export const isJack = (name) => name[0] === "j";
export const oneEyed = (name) => name === "jh" || name === "js";
export const COLS = "abcdefghij";
export const cellName = (cell) => COLS[cell % 10] + Math.floor(cell / 10);
const parseCell = (s) => +s[1] * 10 + COLS.indexOf(s[0]);

/** The cell and mover of a move's notation, for the last-move frame. */
export function lastOf(action, seat) {
  const m = /@([a-j]\d)$/.exec(action || "");
  return m ? { cell: parseCell(m[1]), seat, remove: oneEyed(action.slice(0, 2)) } : null;
}
