//! Cubin (ELF64) section sizes. [`kernel_resources`](super::kernel_resources) compiles to an
//! `sm_90` cubin with `--ptxas-options=-v` and parses ptxas's info lines. Constant bank 0's size
//! (`cmem[0]`: the driver's area plus the kernel parameters) is taken from the log when ptxas
//! prints it (older versions) and otherwise from the size of the cubin's `.nv.constant0.<kernel>`
//! ELF section.
//!
//! The section lookup follows the System V gABI ELF64 layout; the driver area of 0x210 bytes was
//! read from the same compiler's `sm_90` cubins with binutils `readelf -S`
//! (`.nv.constant0._Z3barPf` is 0x218 bytes = 0x210 + 8 for one pointer parameter).

pub(super) fn read_u16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}
pub(super) fn read_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}
pub(super) fn read_u64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// Size of the section called `name` in a little-endian ELF64 image (cubins are; System V gABI
/// header layout: e_shoff at 0x28, e_shentsize/e_shnum/e_shstrndx at 0x3a/0x3c/0x3e; section
/// header: sh_name at 0, sh_size at 0x20).
pub(super) fn elf_section_size(elf: &[u8], name: &str) -> Option<u64> {
    if elf.get(0..4)? != b"\x7fELF" || *elf.get(4)? != 2 || *elf.get(5)? != 1 {
        return None;
    }
    let shoff = usize::try_from(read_u64(elf, 0x28)?).ok()?;
    let shentsize = usize::from(read_u16(elf, 0x3a)?);
    let shnum = usize::from(read_u16(elf, 0x3c)?);
    let shstrndx = usize::from(read_u16(elf, 0x3e)?);
    if shentsize < 0x40 {
        return None;
    }
    let header = |i: usize| shoff.checked_add(i.checked_mul(shentsize)?);
    let strtab_hdr = header(shstrndx)?;
    let strtab_off = usize::try_from(read_u64(elf, strtab_hdr + 0x18)?).ok()?;
    for i in 0..shnum {
        let h = header(i)?;
        let name_off = strtab_off.checked_add(read_u32(elf, h)? as usize)?;
        let rest = elf.get(name_off..)?;
        let end = rest.iter().position(|&b| b == 0)?;
        if &rest[..end] == name.as_bytes() {
            return read_u64(elf, h + 0x20);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elf_section_lookup_on_a_hand_built_image() {
        // ELF64 LE header + 3 section headers (null, .shstrtab, .nv.constant0.k of size 0x218).
        let mut elf = vec![0u8; 0x40];
        elf[0..4].copy_from_slice(b"\x7fELF");
        elf[4] = 2;
        elf[5] = 1;
        let strtab = b"\0.shstrtab\0.nv.constant0.k\0";
        let strtab_off = elf.len();
        elf.extend_from_slice(strtab);
        let shoff = elf.len();
        elf[0x28..0x30].copy_from_slice(&(shoff as u64).to_le_bytes());
        elf[0x3a..0x3c].copy_from_slice(&0x40u16.to_le_bytes());
        elf[0x3c..0x3e].copy_from_slice(&3u16.to_le_bytes());
        elf[0x3e..0x40].copy_from_slice(&1u16.to_le_bytes());
        let mut sh = |name: u32, off: u64, size: u64| {
            let mut h = vec![0u8; 0x40];
            h[0..4].copy_from_slice(&name.to_le_bytes());
            h[0x18..0x20].copy_from_slice(&off.to_le_bytes());
            h[0x20..0x28].copy_from_slice(&size.to_le_bytes());
            elf.extend_from_slice(&h);
        };
        sh(0, 0, 0);
        sh(1, strtab_off as u64, strtab.len() as u64);
        sh(11, 0, 0x218);
        assert_eq!(elf_section_size(&elf, ".nv.constant0.k"), Some(0x218));
        assert_eq!(elf_section_size(&elf, ".nv.constant0.j"), None);
        assert_eq!(elf_section_size(&elf[..0x50], ".nv.constant0.k"), None);
    }
}
