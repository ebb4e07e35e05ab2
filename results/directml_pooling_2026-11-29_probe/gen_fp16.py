import json
def case(name, op, dt, vals, win=(2,2), size=(2,2), dil=False):
    d={"InputTensor":{"DataType":dt,"Sizes":[1,1,*size]},"OutputTensor":{"DataType":dt,"Sizes":[1,1,size[0]-win[0]+1,size[1]-win[1]+1]},
       "DimensionCount":2,"Strides":[1,1],"WindowSize":list(win),"StartPadding":[0,0],"EndPadding":[0,0]}
    if op=="AVERAGE_POOLING1": d["Dilations"]=[1,1]
    d["IncludePadding"]=False
    return {"name":name,"featureLevel":"6_2" if op=="AVERAGE_POOLING1" else "1_0","operator":{"type":"DML_OPERATOR_"+op,"desc":d},"inputs":{"InputTensor":{"values":vals}}}
cs=[]
for op in ["AVERAGE_POOLING","AVERAGE_POOLING1"]:
  for dt in ["FLOAT16","FLOAT32"]:
    cs.append(case(f"{op}_{dt}_big_first", op, dt, [2048,1,1,1]))
    cs.append(case(f"{op}_{dt}_big_last", op, dt, [1,1,1,2048]))
    cs.append(case(f"{op}_{dt}_ones_1x8", op, dt, [1024]+[1]*7, win=(1,8), size=(1,8)))
json.dump({"cases":cs},open("fp16_probe.json","w"),separators=(",",":"))
