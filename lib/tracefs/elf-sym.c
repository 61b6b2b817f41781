// SPDX-License-Identifier: GPL-2.0-only
/* elf-sym.c - a function symbol of an ELF file as the file offset a uprobe needs (libelf). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>
#include <stdbool.h>

#include "probe.h"

/* The value of the defined symbol name in the symbol table of scn; false if absent. */
static bool elf_find_in(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, const char *name,
			   GElf_Sym *out)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	GElf_Sym sym;

	for (size_t i = 0; data && i < n; i++) {
		const char *s;

		if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		s = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (s && !strcmp(s, name)) {
			*out = sym;
			return true;
		}
	}
	return false;
}

/* .symtab first (static functions too), then .dynsym (stripped files). */
static bool elf_find(Elf *elf, const char *name, GElf_Sym *out)
{
	static const Elf64_Word kinds[] = { SHT_SYMTAB, SHT_DYNSYM };

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;

		while ((scn = elf_nextscn(elf, scn)))
			if (gelf_getshdr(scn, &sh) && sh.sh_type == kinds[k] &&
			    elf_find_in(elf, scn, &sh, name, out))
				return true;
	}
	return false;
}

/* Virtual address to file offset through the loadable segment that holds it. */
static bool elf_vaddr_to_off(Elf *elf, uint64_t vaddr, uint64_t *off)
{
	size_t n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return true;
		}
	}
	return false;
}

int tm_elf_symbol_offset(const char *path, const char *name, uint64_t *off)
{
	Elf *elf = NULL;
	GElf_Sym sym;
	int fd, ret = -1;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return tm_failx(EINVAL, "libelf: %s", elf_errmsg(-1));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tm_fail(errno, "uprobe: open %s", path);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		tm_failx(ENOEXEC, "uprobe: %s is not an ELF file", path);
	else if (!elf_find(elf, name, &sym))
		tm_failx(ENOENT, "uprobe: no symbol '%s' in %s", name, path);
	else if (GELF_ST_TYPE(sym.st_info) != STT_FUNC)
		tm_failx(EINVAL, "uprobe: '%s' in %s is not a function", name, path);
	else if (!elf_vaddr_to_off(elf, sym.st_value, off))
		tm_failx(EINVAL, "uprobe: '%s' in %s is in no loadable segment", name, path);
	else
		ret = 0;
	elf_end(elf);
	close(fd);
	return ret;
}
