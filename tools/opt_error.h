/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opt_error.h - an option getopt_long() refused, said in the tool's words on one line.
 *
 * getopt's own messages start with the path the tool was run by and leave the hint to a second
 * line; a tool sets opterr = 0, starts its option string with ':' and calls this on '?' or ':'.
 */
#ifndef TOOLS_OPT_ERROR_H_
#define TOOLS_OPT_ERROR_H_

#include <ctype.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Prints "@tool: unknown option '...'; see @tool --help" (or that the option needs a value, or
 * takes none) for what getopt_long() returned as @c ('?' or ':') with the option string @shorts;
 * returns 2, the exit status of bad usage. */
static inline int tool_option_error(const char *tool, int c, char *const argv[], const char *shorts)
{
	/* A short option refused inside a group ("-Vq") leaves optind on its own word, so the word
	 * before may be another option: a short one is told by optopt, a character @shorts lacks. A
	 * refused long option leaves optopt 0 (unknown) or its value (given a value it takes none).
	 * A missing value is always the last word's. */
	const char *word = argv[optind - 1];
	bool is_char = optopt > 0 && optopt <= UCHAR_MAX;
	bool is_long =
	    c == ':' ? strncmp(word, "--", 2) == 0 : !is_char || (optopt != ':' && strchr(shorts, optopt) != NULL);
	char opt[3] = {'-', is_char && isprint(optopt) ? (char)optopt : '?', '\0'};

	if (c == ':')
		fprintf(stderr, "%s: option '%s' needs a value", tool, is_long ? word : opt);
	else if (is_long && optopt != 0)
		fprintf(stderr, "%s: option '%.*s' takes no value", tool, (int)strcspn(word, "="), word);
	else
		fprintf(stderr, "%s: unknown option '%s'", tool, is_long ? word : opt);
	fprintf(stderr, "; see %s --help\n", tool);
	return 2;
}

#endif /* TOOLS_OPT_ERROR_H_ */
