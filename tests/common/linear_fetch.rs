//! The linear memory the texture probes' `tex1Dfetch` kernels read (tests/hw/texture_mem/
//! fetch_probe.cu and tex3_probe.cu set it up the same way in their `main`): 4 Mi floats, element
//! i holding `i % 4099`, bound as a point-sampled, clamped f32 texture object. Shared by
//! tests/memory/texture_fetch.rs and tests/common/texture3d.rs; included with `#[path]`.

use gpumemsim::runtime::Device;
use gpumemsim::tex::desc::{AddressMode, FilterMode, Resource, TextureDesc};
use gpumemsim::tex::format::{ChannelFormat, ChannelType, ReadMode};

/// Allocates and fills the probes' linear memory on `dev`; returns its texture object.
pub fn fetch_texture(dev: &mut Device) -> u64 {
    let nl: u64 = 4 << 20;
    let lin = dev.malloc(nl * 4, "lin");
    let data: Vec<u8> = (0..nl)
        .flat_map(|i| ((i % 4099) as f32).to_le_bytes())
        .collect();
    dev.memcpy_htod(lin, &data).expect("copy");
    let desc = TextureDesc {
        address: [AddressMode::Clamp; 3],
        filter: FilterMode::Point,
        read: ReadMode::ElementType,
        normalized: false,
        border: [0.0; 4],
    };
    dev.textures
        .create_texture_object(
            Resource::Linear {
                addr: lin,
                format: ChannelFormat {
                    ty: ChannelType::F32,
                    channels: 1,
                },
                size_bytes: nl * 4,
            },
            desc,
        )
        .expect("texture object")
}
