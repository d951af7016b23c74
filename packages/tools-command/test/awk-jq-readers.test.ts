import { describe, expect, it } from 'vitest';
import { awkProblem } from '../src/assess/awk-program.js';
import { jqProblem } from '../src/assess/jq-filter.js';

/** The token readers on their own: everyday programs pass, every way out is named. */
describe('the awk token reader', () => {
  it.each([
    '{print $1}',
    'NR==1',
    '{s+=$3} END {print s}',
    'length > 80',
    '/ERROR/ {c++} END {print c+0}',
    '{print NR": "$0}',
    'BEGIN{print 1+2}',
    '{ $1=""; print }',
    '!seen[$0]++',
    '{printf "%-10s %s\\n", $1, $2}',
    '$3 > 15',
    '{print toupper($0)}',
    '/system/',
    '{print "x" > "/dev/stderr"}',
    'function f(a){return a*2} {print f($1)}',
    '{ a = b / c / d }',
    '/[[:alpha:]]+/',
    '$1 ~ /^[a-z/]+$/ {print $2}',
    'BEGIN { if (x > 1) print "big" }',
    '{ n = split($0, parts, ","); print parts[n] }',
  ])('reads %j as harmless', (program) => {
    expect(awkProblem(program)).toBeUndefined();
  });

  it.each([
    ['BEGIN{system("id")}', /system/],
    ['BEGIN { system ("id") }', /system/],
    ['BEGIN{@f()}', /@/],
    ['BEGIN{f="sys" "tem"; @f("id")}', /@/],
    ['{print | "sh"}', /\|/],
    ['{print |& "sh"}', /\|/],
    ['{print > "out"}', /writes to a file/],
    ['{print $1 >> "out"}', /writes to a file/],
    ['{print > $2}', /writes to a file/],
    ['BEGIN{printf("x") > "f"}', /writes to a file/],
    ['BEGIN{print "a",\n "b" > "f"}', /writes to a file/],
    ['BEGIN{while(("id" | getline l)>0) print l}', /\|/],
    ['BEGIN{getline l < "/etc/shadow"}', /getline/],
    ['BEGIN{print ENVIRON["HOME"]}', /ENVIRON/],
    ['BEGIN { ARGV[1]="/etc/shadow"; ARGC=2 } {print}', /ARGV/],
    ['BEGIN{PROCINFO["sorted_in"]="f"}', /PROCINFO/],
    ['BEGIN{close("x")}', /close/],
    ['BEGIN{fflush("x")}', /fflush/],
    ['BEGIN{awk::system("id")}', /::/],
    ['@include "x"', /@/],
    ['@load "filefuncs"', /@/],
    ['{ if (x) /"/; system("id"); y = /"/ }', /read "\/"/],
    ['BEGIN { if ("a" ~ /[[:alpha:]/"]/) x = 1; system("id") }', /quote|system/],
    ['BEGIN { undefined_function(1) }', /not a function/],
    ['BEGIN { print "unterminated }', /does not end/],
  ])('finds the way out in %j', (program, reason) => {
    expect(awkProblem(program)).toMatch(reason);
  });
});

describe('the jq token reader', () => {
  it.each([
    '.',
    '.scripts',
    '.dependencies | keys[]',
    '.[] | .name',
    'length',
    '.[] | select(.active)',
    'map(.id)',
    '.[] | select(.name==$n)',
    '1+1',
    '.[] | "\\(.id) \\(.name)"',
    '[.[] | .id] | add',
    'to_entries',
    '[1,2,3] | max',
    '.env',
    '{a: .b, c}',
    '{name, if: 1}',
    'reduce .[] as $x (0; . + $x)',
    'def f(g): g | g; f(.a)',
    '@base64 "x\\(.a)"',
    '.a // "d"',
    'try error("x") catch .',
    'label $f | 1, break $f',
    '.a as [$x, $y] | $x',
    'paths(type == "number")',
    '.[] |= . + 1',
  ])('reads %j as harmless', (filter) => {
    expect(jqProblem(filter)).toBeUndefined();
  });

  it.each([
    ['env', /env/],
    ['env.HOME', /env/],
    ['$ENV.HOME', /\$ENV/],
    ['$ENV', /\$ENV/],
    ['{a: env}', /env/],
    ['"\\(env.HOME)"', /env/],
    ['{(env|tostring): 1}', /env/],
    ['import "a" as $k; $k', /import/],
    ['include "x"; .', /include/],
    ['input', /input/],
    ['[inputs]', /inputs/],
    ['input_filename', /input_filename/],
    ['$__loc__', /__loc__/],
    ['debug', /debug/],
    ['stderr', /stderr/],
    ['halt_error', /halt_error/],
    ['get_search_list', /get_search_list/],
    ['a::b', /module/],
    ['$__prog_args', /__prog/],
    ['@unknownformat', /format/],
    ['"unterminated', /does not end/],
    ['"\\(env', /does not end/],
  ])('finds the way out in %j', (filter, reason) => {
    expect(jqProblem(filter)).toMatch(reason);
  });
});
