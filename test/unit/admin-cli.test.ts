import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '#admin/commands.ts';
import { listText, plural, table } from '#admin/format.ts';
import { PROJECT_ROOT } from '../../infra/paths.ts';
import { admin } from '../support/cli.ts';

/**
 * The CLI's conventions, through its dispatcher `main(argv, io)` with no stack: help, group help,
 * `--version`, usage errors' exit code 2, and the list format. Nothing here reaches a command's
 * use case (help and usage errors are answered before the target is resolved); the commands
 * themselves run against the local stack in test/e2e/admin-cli.test.ts.
 */

/** The CLI in this process (test/support/cli.ts); no stack is started, and none is looked for. */
const run = (...argv: string[]) => admin(join(tmpdir(), 'outreach-admin-no-stack'), argv);

/** `text` as a regular expression that matches it literally. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const groupNames = [
  ...new Set(Object.keys(commands).flatMap((name) => (name.includes(' ') ? [name.split(' ')[0]!] : []))),
];

describe('outreach-admin --version', () => {
  it('prints package.json’s version for --version and -V, exit 0', async () => {
    const { version } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V'])
      expect(await run(flag)).toEqual({ code: 0, stdout: `outreach-admin ${version}\n`, stderr: '' });
  });
});

describe('outreach-admin --help', () => {
  it('lists every command with its one-line summary, for --help, -h and help', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const { code, stdout, stderr } = await run(...args);
      expect({ args, code, stderr }).toEqual({ args, code: 0, stderr: '' });
      expect(stdout).toMatch(/^Usage: outreach-admin <command> /);
      for (const [name, command] of Object.entries(commands)) {
        expect(command.summary).toMatch(/^[A-Z].*\.$/);
        expect(command.summary).not.toContain('\n');
        expect(stdout).toMatch(new RegExp(`^ {2}${name} +${escaped(command.summary)}$`, 'm'));
      }
      expect(stdout).toMatch(/^ {2}-V, --version /m);
    }
  });

  it('prints a group’s commands, with summaries and usage, for `GROUP --help` and `help GROUP`', async () => {
    expect(groupNames).toEqual(expect.arrayContaining(['webhook', 'key', 'provider', 'org']));
    for (const group of groupNames) {
      const members = Object.entries(commands).filter(([name]) => name.startsWith(`${group} `));
      for (const args of [
        [group, '--help'],
        [group, '-h'],
        ['help', group],
      ]) {
        const { code, stdout, stderr } = await run(...args);
        expect({ args, code, stderr }).toEqual({ args, code: 0, stderr: '' });
        expect(stdout.startsWith(`Usage: outreach-admin ${group} <command> [flags]\n`)).toBe(true);
        for (const [name, command] of members) {
          expect(stdout).toMatch(new RegExp(`^ {2}${name} +${escaped(command.summary)}$`, 'm'));
          expect(stdout).toContain(`\n  outreach-admin ${command.usage}\n`);
        }
        // Only the group's own commands.
        expect(stdout.match(/^ {2}outreach-admin /gm)).toHaveLength(members.length);
      }
    }
  });

  it('prints a command’s usage, summary and what each flag is, for --help, -h and help COMMAND', async () => {
    for (const args of [
      ['key', 'create', '--help'],
      ['key', 'create', '-h'],
      ['help', 'key', 'create'],
      // Help wins over the flags it comes with, even ones the command does not take.
      ['key', 'create', '--org', '1', '--bogus', '--help'],
    ]) {
      const { code, stdout, stderr } = await run(...args);
      expect({ args, code, stderr }).toEqual({ args, code: 0, stderr: '' });
      expect(stdout).toMatch(
        /^Usage: outreach-admin key create --org ID \[--scope read\|read-write\] \[--name NAME\] \[--expires-in-days DAYS\]\n\nCreate an API key for an organization\.\n\nFlags:\n {2}--org ID {17}the organization’s id .*\n {2}--scope read\|read-write {2}what the key may do \(default: read-write\)\n/,
      );
      expect(stdout).toMatch(/^ {2}--json .*\n {2}--stack NAME --region REGION .*\n {2}-h, --help /m);
    }
  });

  it('describes every flag of every command', async () => {
    for (const name of Object.keys(commands)) {
      const { stdout } = await run(...name.split(' '), '--help');
      const flagLines = stdout.slice(
        stdout.indexOf('Flags:\n'),
        stdout.indexOf('\n\nFlags of every command:'),
      );
      for (const line of flagLines.split('\n').slice(1))
        expect({ name, line }).toMatchObject({
          line: expect.stringMatching(/^ {2}--\S+(?: \S+)? {2,}\S/),
        });
    }
  });

  it('says what FILE of `import` is and where its format is documented', async () => {
    const { stdout } = await run('import', '--help');
    expect(stdout).toMatch(/\nArguments:\n {2}FILE {2}a JSON document: /);
    expect(stdout).toContain('docs/import-format.md');
  });
});

describe('outreach-admin usage errors', () => {
  it('exit 2 with the usage on stderr: no command, an unknown one, a group without a command', async () => {
    const cases: [string[], string, string][] = [
      [[], 'No command given', 'Usage: outreach-admin <command>'],
      [['frobnicate'], 'Unknown command: frobnicate', 'Usage: outreach-admin <command>'],
      [['help', 'frobnicate'], 'Unknown command: frobnicate', 'Usage: outreach-admin <command>'],
      [['webhook'], 'Missing command: webhook <command>', 'Usage: outreach-admin webhook <command>'],
      [
        ['webhook', 'frobnicate'],
        'Unknown command: webhook frobnicate',
        'Usage: outreach-admin webhook <command>',
      ],
      [
        ['key', 'list', '--org', '1', '--bogus'],
        "Unknown option '--bogus'",
        'Usage: outreach-admin key list',
      ],
    ];
    for (const [args, message, usage] of cases) {
      const { code, stdout, stderr } = await run(...args);
      expect({ args, code, stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(stderr).toContain(message);
      expect(stderr).toContain(usage);
    }
  });

  it('answers a group without a command as one JSON object with --json', async () => {
    const { code, stderr } = await run('webhook', '--json');
    expect(code).toBe(2);
    expect(JSON.parse(stderr)).toEqual({
      error: { kind: 'usage', message: 'Missing command: webhook <command>' },
    });
  });
});

describe('the text of list commands', () => {
  it('is a header row and tab-separated rows, `-` in an empty cell', () => {
    expect(
      table(
        ['ID', 'NAME', 'REVOKED'],
        [
          [1, 'Desk', null],
          [2, '', '2026-01-01T00:00:00.000Z'],
        ],
      ),
    ).toBe('ID\tNAME\tREVOKED\n1\tDesk\t-\n2\t-\t2026-01-01T00:00:00.000Z');
  });

  it('says so when there is nothing, and ends with the next page’s cursor when there is one', () => {
    expect(listText(['ID'], [], 'No webhooks')).toBe('No webhooks');
    expect(listText(['ID'], [[7]], 'No webhooks', 'More: --cursor 7')).toBe('ID\n7\nMore: --cursor 7');
    expect(listText(['ID'], [], 'No webhooks', 'More: --cursor 7')).toBe('More: --cursor 7');
  });

  it('counts in words with the right plural', () => {
    expect([plural(0, 'assignment'), plural(1, 'assignment'), plural(1200, 'assignment')]).toEqual([
      '0 assignments',
      '1 assignment',
      '1,200 assignments',
    ]);
  });

  it('has no `(s)` plurals and no colour codes anywhere in the CLI', () => {
    const directory = join(PROJECT_ROOT, 'shared/admin');
    for (const file of readdirSync(directory, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts')) continue;
      const source = readFileSync(join(directory, file), 'utf8');
      expect({
        file,
        plurals: /\w\(s\)/.test(source),
        colour: /\\(x1b|u001b)\[[0-9;]*m/.test(source),
      }).toEqual({
        file,
        plurals: false,
        colour: false,
      });
    }
  });
});
