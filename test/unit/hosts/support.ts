/** Helpers shared by the tree-sitter host tests. */
import { treeParser } from '../../../server/src/extract/treehost';

/** Whether `text` parses without an error node in the host's grammar (loaded first: `ensureParser`). */
export function parsesClean(lang: 'go' | 'java', text: string): boolean {
  const tree = treeParser(lang)!.parse(text)!;
  try {
    return !tree.rootNode.hasError;
  } finally {
    tree.delete();
  }
}
