// SPDX-License-Identifier: MIT
/*
 * wsc cp's names: the programs, the calls of a transaction and the
 * measured portions, which the files, the runs and the output all use.
 */
#include "cp.h"

const char *const cp_program_names[CP_NR_PROGRAMS] = {
	[CP_NORMAL]          = "NORMAL",
	[CP_NORMAL_COLLECT]  = "NORMAL+COLLECT",
	[CP_WSC_COLLECT]     = "WSC+COLLECT",
	[CP_NORMAL_RW]       = "NORMAL+RW",
	[CP_WSC_RW]          = "WSC+RW",
	[CP_WSC_CHAIN]       = "WSC+CHAIN",
	[CP_WSC_CHAIN_COLLECT] = "WSC+CHAIN+COLLECT",
	[CP_IO_URING]        = "IO_URING",
	[CP_COPY_FILE_RANGE] = "COPY_FILE_RANGE",
};

const char *const cp_step_names[CP_NR_STEPS] = {
	[CP_STEP_OPEN_SRC]  = "openat of the source",
	[CP_STEP_OPEN_DST]  = "openat of the destination",
	[CP_STEP_READ]      = "read",
	[CP_STEP_WRITE]     = "write",
	[CP_STEP_CLOSE_SRC] = "close of the source",
	[CP_STEP_CLOSE_DST] = "close of the destination",
};

#define OC	"open-close"
#define RW	"read-write"
const struct cp_portion cp_portions[] = {
	{  1, CP_NORMAL,          OC, CP_MARK_START, CP_MARK_END,    1 },
	{  2, CP_NORMAL_COLLECT,  OC, CP_MARK_START, CP_MARK_END,    1 },
	{  3, CP_WSC_COLLECT,     OC, CP_MARK_START, CP_MARK_END,    1 },
	{  4, CP_NORMAL_RW,       OC, CP_MARK_START, CP_MARK_END,    1 },
	{  5, CP_WSC_RW,          OC, CP_MARK_START, CP_MARK_END,    1 },
	{  6, CP_NORMAL_COLLECT,  RW, CP_MARK_RW,    CP_MARK_RW_END, 6 },
	{  7, CP_WSC_COLLECT,     RW, CP_MARK_RW,    CP_MARK_RW_END, 6 },
	{  8, CP_NORMAL_RW,       RW, CP_MARK_RW,    CP_MARK_RW_END, 8 },
	{  9, CP_WSC_RW,          RW, CP_MARK_RW,    CP_MARK_RW_END, 8 },
	{ 10, CP_NORMAL_COLLECT,  "write", CP_MARK_WRITE, CP_MARK_RW_END, 10 },
	{ 11, CP_WSC_COLLECT,     "write", CP_MARK_WRITE, CP_MARK_RW_END, 10 },
	{ 12, CP_WSC_CHAIN,       OC, CP_MARK_START, CP_MARK_END,    1 },
	{ 13, CP_IO_URING,        OC, CP_MARK_START, CP_MARK_END,    1 },
	{ 14, CP_COPY_FILE_RANGE, OC, CP_MARK_START, CP_MARK_END,    1 },
	{ 15, CP_WSC_CHAIN_COLLECT, OC, CP_MARK_START, CP_MARK_END,  1 },
};
#undef OC
#undef RW
const unsigned int cp_nr_portions = sizeof(cp_portions) / sizeof(cp_portions[0]);

const struct cp_portion *cp_portion_by_number(unsigned int number)
{
	unsigned int i;

	for (i = 0; i < cp_nr_portions; i++)
		if (cp_portions[i].number == number)
			return &cp_portions[i];
	return NULL;
}
