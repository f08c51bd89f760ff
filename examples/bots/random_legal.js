// A bot for the table protocol (docs/protocol.md) in JavaScript, written from the contract alone:
// read one JSON object a line on stdin; answer each "act" message with {"action": <id>} on stdout.
// It plays a random legal action.
//
//     tressette eval --bot js="node examples/bots/random_legal.js" js random --game calabresella
const readline = require("readline");

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type !== "act") return; // other messages need no answer
  const legal = message.legal;
  const choice = legal[Math.floor(Math.random() * legal.length)];
  process.stdout.write(JSON.stringify({ action: choice.id }) + "\n");
});
