// A question asked in the page: before an action that cannot be taken back (go's pass), or for a
// line of text (a dispute's reason, what is wrong with a chat line). A small modal <dialog> in the
// page's language, not the browser's window.confirm or window.prompt (which speak the browser's
// language and cannot be styled). The dialog takes the focus on its confirming button (or on its
// text field), so Enter answers yes, Escape or the other button answers no; the focus goes back
// to where it was when the dialog closes.

/** Ask `text` with the buttons `yes` and `no` (their words); resolves true on yes, false on no
 *  or Escape. With `field` ({max, placeholder, required}; the question labels it), the dialog holds a text box
 *  (#ask-field, at most `max` characters, a count of them shown): it resolves to the text
 *  written (trimmed) on yes, null on no or Escape; Enter sends (Shift+Enter starts a new line),
 *  and yes stays disabled while a `required` box is empty. The dialog is #ask, its buttons
 *  [data-answer="yes"] and [data-answer="no"]; one question at a time: asking while a question
 *  is open answers the open one no. */
export function ask({ text, yes, no, field }) {
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
    d.append(p);
    let box = null;
    if (field) {
      box = document.createElement("textarea");
      box.id = "ask-field";
      box.rows = 3;
      box.maxLength = field.max || 500;
      box.setAttribute("aria-labelledby", p.id);
      if (field.placeholder) box.placeholder = field.placeholder;
      const count = document.createElement("div");
      count.className = "ask-count muted";
      count.setAttribute("aria-hidden", "true");
      const update = () => {
        count.textContent = `${box.value.length} / ${box.maxLength}`;
        yesBtn.disabled = Boolean(field.required) && !box.value.trim();
      };
      box.addEventListener("input", update);
      box.addEventListener("keydown", (e) => {
        if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
          e.preventDefault();
          if (!yesBtn.disabled) done(true);
        }
      });
      update();
      d.classList.add("ask-with-field");
      d.append(box, count);
    }
    d.append(row);
    let answered = false;
    function done(answer) {
      if (answered) return;
      answered = true;
      if (d.open) d.close();
      d.remove();
      if (back && back.isConnected && typeof back.focus === "function") back.focus();
      resolve(box ? (answer ? box.value.trim() : null) : answer);
    }
    d.addEventListener("cancel", (e) => { e.preventDefault(); done(false); });
    document.body.append(d);
    d.showModal();
    (box || yesBtn).focus();
  });
}
