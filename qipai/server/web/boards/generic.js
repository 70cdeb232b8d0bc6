// Fallback board for a game without its own module: the view as text, the legal actions as
// buttons, and a field to type any action in the game's notation.
export function mount(root, ctx) {
  const box = document.createElement("div");
  box.className = "generic";
  root.replaceChildren(box);
  return {
    update(msg) {
      box.replaceChildren();
      const pre = document.createElement("pre");
      pre.tabIndex = 0;                    // it scrolls: reachable with the keyboard
      const view = { ...msg.view };
      delete view.legal_moves;
      pre.textContent = JSON.stringify(view, null, 1);
      box.append(pre);
      const acting = !msg.replay && msg.seat !== null && (msg.to_act || []).includes(msg.seat) && !msg.result;
      if (!acting) return;
      // a list of actions, or a view's summary ({kind, actions} or {kind, count}) when the set is
      // too long to list: then the field below takes the action
      let legal = msg.legal || msg.view.legal_moves || msg.view.legal || [];
      if (!Array.isArray(legal)) legal = Array.isArray(legal.actions) ? legal.actions : [];
      const list = document.createElement("div");
      list.className = "legal";
      for (const a of legal.slice(0, 400)) {
        const b = document.createElement("button");
        b.textContent = typeof a === "string" ? a : JSON.stringify(a);
        b.onclick = () => ctx.send(b.textContent);
        list.append(b);
      }
      const input = document.createElement("input");
      input.placeholder = "action";
      input.onkeydown = (e) => { if (e.key === "Enter" && input.value) ctx.send(input.value); };
      box.append(list, input);
    },
  };
}
