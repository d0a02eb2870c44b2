/**
 * The cut of rendered content at the length the caller gives (a feed card's: DEFAULT_CUT_LENGTH,
 * 150): the sanitized DOM is walked in reading order, counting what a reader sees as textLength
 * counts it and the lines it starts (a paragraph, list item, heading, table row, `<br>`, a line of
 * code). At the limit the text is cut between two characters, and everything after it goes; a
 * formula (KaTeX), an image or a rule is kept whole or not at all; elements left empty are pruned
 * and `...` closes the last line. Tags are never cut: the DOM does the closing.
 */
import { eachGrapheme, graphemeLength, textLength } from '#shared/text-length.ts';

export interface CutLimits {
  /** Length units (emoji 4, other non-ASCII 2, others 1). */
  length: number;
  /** Lines (blocks and line breaks). */
  lines: number;
}

export const ELLIPSIS = '...';

const BLOCKS = new Set(['P', 'LI', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'PRE', 'BLOCKQUOTE', 'TR', 'TABLE', 'UL', 'OL', 'DIV', 'HR']);

function isElement(node: Node): node is Element {
  return node.nodeType === 1;
}

function isText(node: Node): node is Text {
  return node.nodeType === 3;
}

/** Shown whole or not at all: a formula, an image, a horizontal rule. */
function isAtomic(node: Node): boolean {
  if (!isElement(node)) return false;
  const tag = node.nodeName.toUpperCase();
  return tag === 'IMG' || tag === 'HR' || node.classList.contains('katex') || node.classList.contains('rich-math-source');
}

function isBlock(element: Element): boolean {
  return BLOCKS.has(element.nodeName.toUpperCase()) || element.classList.contains('katex-display');
}

/** The length of a formula: its TeX source as written (KaTeX keeps it in <annotation>). */
function atomicLength(element: Element): number {
  const tag = element.nodeName.toUpperCase();
  if (tag === 'IMG' || tag === 'HR') return 0;
  const source = element.querySelector('annotation')?.textContent ?? element.textContent ?? '';
  return textLength(source);
}

/** Removes `node` and everything after it in reading order (up to `root`). */
function dropFrom(root: Node, node: Node, keepNode: boolean): void {
  for (let at: Node | null = node; at && at !== root; at = at.parentNode) {
    while (at.nextSibling) at.nextSibling.remove();
  }
  if (!keepNode) (node as ChildNode).remove();
}

function lastLeaf(root: Node): Node | null {
  let node = root.lastChild;
  while (node && isElement(node) && !isAtomic(node) && node.lastChild) node = node.lastChild;
  return node;
}

function isEmptyLeaf(leaf: Node): boolean {
  if (isText(leaf)) return !leaf.data.trim();
  if (!isElement(leaf) || isAtomic(leaf)) return false;
  return leaf.nodeName.toUpperCase() === 'BR' || !leaf.hasChildNodes();
}

/** Prunes what the cut left empty at the end, then writes `...` after the last thing kept. */
function closeWithEllipsis(root: Node): void {
  for (;;) {
    const leaf = lastLeaf(root);
    if (!leaf || !isEmptyLeaf(leaf)) break;
    (leaf as ChildNode).remove();
  }
  const leaf = lastLeaf(root);
  const doc = root.ownerDocument ?? (root as Document);
  if (!leaf) root.appendChild(doc.createTextNode(ELLIPSIS));
  else if (isText(leaf)) leaf.data = `${leaf.data.replace(/\s+$/, '')}${ELLIPSIS}`;
  else (leaf as ChildNode).after(doc.createTextNode(ELLIPSIS));
}

/**
 * Cuts `root` (a sanitized fragment or element) to `limits`, in place. True when something was
 * cut (the caller then offers 展开).
 */
export function cutRendered(root: Node, limits: CutLimits): boolean {
  let units = 0;
  let lines = 0;
  let lineOpen = false;

  /** One more thing on the current line; false when it would start a line past the limit. */
  const fitsLine = () => {
    if (!lineOpen) {
      lines += 1;
      lineOpen = true;
    }
    return lines <= limits.lines;
  };

  /** Where the cut goes: a text node cut at a character, or a node dropped with what follows. */
  const cutText = (node: Text, inPre: boolean): boolean => {
    let kept = 0;
    for (const part of eachGrapheme(node.data)) {
      if (part === '\n' || part === '\r\n') {
        if (inPre) lineOpen = false;
        kept += part.length;
        continue;
      }
      if (!fitsLine() || units + graphemeLength(part) > limits.length) {
        node.data = node.data.slice(0, kept);
        dropFrom(root, node, true);
        return true;
      }
      units += graphemeLength(part);
      kept += part.length;
    }
    return false;
  };

  const walk = (parent: Node, inPre: boolean): boolean => {
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      if (isText(child)) {
        if (!inPre && !child.data.trim()) continue;
        if (cutText(child, inPre)) return true;
        continue;
      }
      if (!isElement(child)) continue;
      const tag = child.nodeName.toUpperCase();
      if (tag === 'BR') {
        lineOpen = false;
        continue;
      }
      const block = isBlock(child);
      if (block) lineOpen = false;
      if (isAtomic(child)) {
        const length = atomicLength(child);
        if (!fitsLine() || units + length > limits.length) {
          dropFrom(root, child, false);
          return true;
        }
        units += length;
      } else if (walk(child, inPre || tag === 'PRE')) {
        return true;
      }
      if (block) lineOpen = false;
    }
    return false;
  };

  if (!walk(root, false)) return false;
  closeWithEllipsis(root);
  return true;
}
