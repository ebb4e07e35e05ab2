import json, itertools
CH=2
def t(dt, sizes): return {"DataType": dt, "Sizes": sizes}
def case(name, in_dt="UINT8", out_dt="UINT8", rank=4, iscale=None, izp="same", oscale=None, ozp="same",
         dil=None, pad=(0,0), incl=False, zp_dt=None):
    sp = [4,4] if rank==4 else [4,4,4]
    n = len(sp)
    insz = [1,CH]+sp
    win=[2]*n; st=[2]*n
    dil = dil or [1]*n
    s0=[pad[0]]*n; e0=[pad[1]]*n
    outsp=[ (sp[i]+s0[i]+e0[i]-((win[i]-1)*dil[i]+1))//st[i]+1 for i in range(n)]
    iscale = iscale or [1,1,1,1]; oscale = oscale or [1,1,1,1]
    d = {"InputTensor": t(in_dt, insz), "InputScaleTensor": t("FLOAT32", iscale)}
    inputs = {"InputTensor": {"values": [(i*7)%50 for i in range(1*CH*eval('*'.join(map(str,sp))))]},
              "InputScaleTensor": {"values": [0.05]*eval('*'.join(map(str,iscale)))}}
    if izp is not None:
        izp_s = iscale if izp=="same" else izp
        d["InputZeroPointTensor"] = t(in_dt, izp_s); inputs["InputZeroPointTensor"]={"values":[3]*eval('*'.join(map(str,izp_s)))}
    d["OutputScaleTensor"] = t("FLOAT32", oscale); inputs["OutputScaleTensor"]={"values":[0.04]*eval('*'.join(map(str,oscale)))}
    if ozp is not None:
        ozp_s = oscale if ozp=="same" else ozp
        d["OutputZeroPointTensor"] = t(out_dt, ozp_s); inputs["OutputZeroPointTensor"]={"values":[2]*eval('*'.join(map(str,ozp_s)))}
    d["OutputTensor"] = t(out_dt, [1,CH]+outsp)
    d.update({"DimensionCount": n, "Strides": st, "WindowSize": win, "StartPadding": s0, "EndPadding": e0, "Dilations": dil, "IncludePadding": incl})
    return {"name": name, "featureLevel": "6_2", "operator": {"type": "DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING", "desc": d}, "inputs": inputs}
cs = [
 case("p00_base_u8"),
 case("p01_i8_base", "INT8", "INT8"),
 case("p02_u8_to_i8", "UINT8", "INT8"),
 case("p03_u8_to_i8_no_zp", "UINT8", "INT8", izp=None, ozp=None),
 case("p04_no_zp", izp=None, ozp=None),
 case("p05_in_zp_only", ozp=None),
 case("p06_out_zp_only", izp=None),
 case("p07_scale_pc_zp_pt", iscale=[1,2,1,1], izp=[1,1,1,1]),
 case("p08_scale_pc_zp_pc", iscale=[1,2,1,1], oscale=[1,2,1,1]),
 case("p09_dilated", dil=[2,2]),
 case("p10_pad_incl", pad=(1,1), incl=True),
 case("p11_pad_excl", pad=(1,1), incl=False),
 case("p12_rank5_scale4d", rank=5),
 case("p13_rank5_scale5d", rank=5, iscale=[1,1,1,1,1], oscale=[1,1,1,1,1]),
 case("p14_scale1d", iscale=[1], oscale=[1]),
 case("p15_rank5_no_zp", rank=5, izp=None, ozp=None),
 case("p16_oscale_pc_only", oscale=[1,2,1,1]),
]
json.dump({"cases": cs}, open("qlap_probe.json","w"), separators=(",",":"))
print(len(cs))
cs2 = [
 case("r01_4d_scale5d", iscale=[1,1,1,1,1], oscale=[1,1,1,1,1]),
 case("r02_4d_scale3d", iscale=[1,1,1], oscale=[1,1,1]),
 case("r03_4d_scale2d_pc", iscale=[1,2], oscale=[1,2]),
 case("r04_4d_only_izp_rank_differs", iscale=[1,1,1,1], izp=[1,1,1]),
 case("r05_4d_only_ozp_rank3", ozp=[1,1,1]),
 case("r06_5d_scale1d", rank=5, iscale=[1], oscale=[1]),
 case("r07_5d_only_oscale4d", rank=5, iscale=[1,1,1,1,1], oscale=[1,1,1,1], izp=None, ozp=None),
 case("r08_4d_pc_1d", iscale=[2], oscale=[2]),
]
json.dump({"cases": cs2}, open("qlap_probe2.json","w"), separators=(",",":"))
cs3 = [
 case("q01_4d_scale2d_pt", iscale=[1,1], oscale=[1,1]),
 case("q02_5d_scale3d", rank=5, iscale=[1,1,1], oscale=[1,1,1]),
 case("q03_5d_scale2d", rank=5, iscale=[1,1], oscale=[1,1]),
 case("q04_4d_scale3d_pc", iscale=[1,2,1], oscale=[1,2,1]),
 case("q05_4d_scale5d_pc", iscale=[1,2,1,1,1], oscale=[1,2,1,1,1]),
 case("q06_5d_scale4d_pc", rank=5, iscale=[1,2,1,1], oscale=[1,2,1,1]),
 case("q07_4d_only_in_scale2d", iscale=[1,1], izp=None, ozp=None),
 case("q08_4d_only_out_scale2d", oscale=[1,1], izp=None, ozp=None),
 case("q09_5d_only_in_scale4d", rank=5, iscale=[1,1,1,1], oscale=[1,1,1,1,1], izp=None, ozp=None),
 case("q10_5d_scale5d_zp4d_none", rank=5, iscale=[1,1,1,1,1], oscale=[1,1,1,1,1]),
]
json.dump({"cases": cs3}, open("qlap_probe3.json","w"), separators=(",",":"))
F4=[1,1,1,1]; F5=[1,1,1,1,1]
cs4 = [
 case("a1_4d_os1_ozp1", oscale=[1], ozp=[1]),
 case("a2_4d_os1_no_ozp", oscale=[1], ozp=None),
 case("a3_4d_os2_ozp2", oscale=[1,1], ozp=[1,1]),
 case("a4_4d_os2_no_ozp", oscale=[1,1], ozp=None),
 case("a5_5d_os4_ozp4", rank=5, iscale=F5, oscale=F4, ozp=F4),
 case("a6_5d_os4_no_ozp", rank=5, iscale=F5, oscale=F4, ozp=None),
 case("a7_5d_os1_ozp1", rank=5, iscale=F5, oscale=[1], ozp=[1]),
 case("a8_5d_os1_no_ozp", rank=5, iscale=F5, oscale=[1], ozp=None),
 case("b1_4d_is1_izp1", iscale=[1], izp=[1]),
 case("b2_4d_is1_no_izp", iscale=[1], izp=None),
 case("b3_5d_is4_izp4", rank=5, iscale=F4, izp=F4, oscale=F5),
 case("b4_5d_is4_no_izp", rank=5, iscale=F4, izp=None, oscale=F5),
 case("b5_4d_is2_izp2", iscale=[1,1], izp=[1,1]),
 case("c2_5d_os1_ozp1_no_izp", rank=5, iscale=F5, izp=None, oscale=[1], ozp=[1]),
 case("c3_4d_is1_izp1_os1_no_ozp", iscale=[1], izp=[1], oscale=[1], ozp=None),
 case("c4_4d_pc_os2_ozp2", oscale=[1,2], ozp=[1,2]),
 case("c5_4d_pc_os1_ozp1", oscale=[2], ozp=[2]),
 case("c6_4d_pc_is1_izp1", iscale=[2], izp=[2]),
]
json.dump({"cases": cs4}, open("qlap_probe4.json","w"), separators=(",",":"))
CH=1
cs5 = [
 case("k1_c1_p12_5d_all4d", rank=5),
 case("k2_c1_p14_4d_all1d", iscale=[1], oscale=[1]),
 case("k3_c1_q01_4d_all2d", iscale=[1,1], oscale=[1,1]),
 case("k4_c1_a6", rank=5, iscale=F5, oscale=F4, ozp=None),
 case("k5_c1_b4", rank=5, iscale=F4, izp=None, oscale=F5),
 case("k6_c1_5d_all1d", rank=5, iscale=[1], oscale=[1]),
]
CH=2
cs5 += [case(f"f{i}_c2_a6", rank=5, iscale=F5, oscale=F4, ozp=None) for i in range(3)]
cs5 += [case(f"g{i}_c2_b4", rank=5, iscale=F4, izp=None, oscale=F5) for i in range(3)]
json.dump({"cases": cs5}, open("qlap_probe5.json","w"), separators=(",",":"))
