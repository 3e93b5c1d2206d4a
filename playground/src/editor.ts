/**
 * The editor: a textarea with a gutter of line numbers that scrolls with it. Lines with a
 * diagnostic are marked in the gutter; `goTo` puts the caret at a line and column.
 */
export interface Editor {
  readonly textarea: HTMLTextAreaElement;
  text(): string;
  setText(text: string): void;
  /** Puts the caret at a 1-based line and column, scrolls it into view and focuses the text. */
  goTo(line: number, column: number): void;
  /** Marks lines in the gutter by severity (the worst one per line). */
  mark(lines: ReadonlyMap<number, "error" | "warning" | "info">): void;
}

export function createEditor(textarea: HTMLTextAreaElement, gutter: HTMLElement, onChange: () => void): Editor {
  let lineCount = 0;
  let marks: ReadonlyMap<number, string> = new Map();
  const render = () => {
    const count = textarea.value.split("\n").length;
    if (count !== lineCount) {
      lineCount = count;
      const rows = Array.from({ length: count }, (_, i) => {
        const row = document.createElement("div");
        row.textContent = String(i + 1);
        return row;
      });
      gutter.replaceChildren(...rows);
    }
    Array.from(gutter.children).forEach((row, i) => {
      row.className = marks.get(i + 1) ?? "";
    });
    gutter.scrollTop = textarea.scrollTop;
  };
  textarea.addEventListener("input", () => {
    render();
    onChange();
  });
  textarea.addEventListener("scroll", () => (gutter.scrollTop = textarea.scrollTop));
  return {
    textarea,
    text: () => textarea.value,
    setText(text) {
      textarea.value = text;
      textarea.scrollTop = 0;
      render();
      onChange();
    },
    goTo(line, column) {
      const lines = textarea.value.split("\n");
      let offset = 0;
      for (let i = 0; i < Math.min(line - 1, lines.length); i++) offset += lines[i]!.length + 1;
      offset += Math.max(0, column - 1);
      textarea.focus();
      textarea.setSelectionRange(offset, offset);
      const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 18;
      textarea.scrollTop = Math.max(0, (line - 1) * lineHeight - textarea.clientHeight / 3);
      gutter.scrollTop = textarea.scrollTop;
    },
    mark(lines) {
      marks = lines;
      render();
    },
  };
}
