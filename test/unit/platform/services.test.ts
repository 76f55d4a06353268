import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { tsFiles } from '../../helpers/tsFiles';

const SRC = path.join(__dirname, '..', '..', '..', 'src');

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The property names of every object type written in `node` (an interface's body, a type alias's literals). */
function declaredFields(node: ts.Node): string[] {
  const names: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isInterfaceDeclaration(n) || ts.isTypeLiteralNode(n))
      for (const m of n.members) if (m.name && ts.isIdentifier(m.name)) names.push(m.name.text);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return names;
}

/** Every `…Deps` interface or type alias of the VS Code glue (src/ outside src/core), with the fields it writes. */
function glueDeps(): { where: string; fields: string[] }[] {
  const found: { where: string; fields: string[] }[] = [];
  for (const file of tsFiles(SRC)) {
    if (file.startsWith(path.join(SRC, 'core') + path.sep)) continue;
    const source = parse(file);
    for (const statement of source.statements) {
      if (!ts.isInterfaceDeclaration(statement) && !ts.isTypeAliasDeclaration(statement)) continue;
      if (!statement.name.text.endsWith('Deps')) continue;
      found.push({
        where: `${path.relative(SRC, file)} ${statement.name.text}`,
        fields: declaredFields(statement),
      });
    }
  }
  return found;
}

describe('services: one record built in extension.ts, received by every feature (src/services.ts)', () => {
  const services = parse(path.join(SRC, 'services.ts'));
  const record = services.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Services',
  );

  it('names each service once', () => {
    assert.ok(record, 'src/services.ts declares interface Services');
    const fields = declaredFields(record);
    assert.deepEqual(fields, [...new Set(fields)]);
    for (const service of ['log', 'redactor', 'connection', 'secrets', 'contracts', 'failures', 'tracked'])
      assert.ok(fields.includes(service), `${service} is in the record`);
  });

  it('no …Deps shape of the glue writes a field of the record again (it narrows the record with Pick)', () => {
    assert.ok(record);
    const serviceNames = new Set(declaredFields(record));
    const deps = glueDeps();
    assert.ok(deps.length >= 15, `the glue's …Deps shapes are found (${deps.length})`);
    const repeated = deps.flatMap(({ where, fields }) =>
      fields.filter((f) => serviceNames.has(f)).map((f) => `${where}: ${f}`),
    );
    assert.deepEqual(repeated, []);
  });

  it('the commands take the log and the redactor from the record, not a `redact` function beside it', () => {
    const commands = fs.readFileSync(path.join(SRC, 'platform', 'commands.ts'), 'utf8');
    assert.match(commands, /export type CommandContext = Pick<Services, 'log' \| 'redactor'>;/);
    const passedBoth = tsFiles(SRC)
      .filter((f) => !f.startsWith(path.join(SRC, 'core') + path.sep))
      .filter((f) => /\bredact: \(text: string\) => string/.test(fs.readFileSync(f, 'utf8')));
    assert.deepEqual(passedBoth, []);
  });
});
