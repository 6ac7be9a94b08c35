import type { Node as TNode } from 'web-tree-sitter';
import type { RequestSite } from './model';
import { TreeHost, kids } from './treehost';

class JavaHost implements TreeHost {
  units(root: TNode): { node: TNode; env: boolean }[] {
    return kids(root).map((node) => ({ node, env: true }));
  }
  prepare(): void {}
  sites(): RequestSite[] {
    return [];
  }
}

export function javaHost(): TreeHost {
  return new JavaHost();
}
