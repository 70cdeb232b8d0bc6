// A question asked in the page before an action that cannot be taken back (go's pass): a small
// modal <dialog> in the page's language, not the browser's window.confirm (which speaks the
// browser's language and cannot be styled). The dialog takes the focus on its confirming button,
// so Enter or Space answers yes, Escape or the other button answers no; the focus goes back to
// where it was when the dialog closes.

/** Ask `text` with the buttons `yes` and `no` (their words); resolves true on yes, false on no
 *  or Escape. The dialog is #ask, its buttons [data-answer="yes"] and [data-answer="no"]; one
 *  question at a time: asking while a question is open answers the open one no. */
export function ask({ text, yes, no }) {
  document.getElementById("ask")?.dispatchEvent(new Event("cancel"));
  return new Promise((resolve) => {
    const back = document.activeElement;
    const d = document.createElement("dialog");
    d.id = "ask";
    d.className = "ask";
    const p = document.createElement("p");
    p.id = "ask-text";
    p.textContent = text;
    d.setAttribute("aria-labelledby", p.id);
    const row = document.createElement("div");
    row.className = "row ask-buttons";
    const button = (label, answer, primary) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.dataset.answer = answer;
      if (primary) b.className = "primary";
      b.onclick = () => done(answer === "yes");
      return b;
    };
    const yesBtn = button(yes, "yes", true);
    row.append(yesBtn, button(no, "no", false));
    d.append(p, row);
    let answered = false;
    function done(answer) {
      if (answered) return;
      answered = true;
      if (d.open) d.close();
      d.remove();
      if (back && back.isConnected && typeof back.focus === "function") back.focus();
      resolve(answer);
    }
    d.addEventListener("cancel", (e) => { e.preventDefault(); done(false); });
    document.body.append(d);
    d.showModal();
    yesBtn.focus();
  });
}
